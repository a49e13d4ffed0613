package routetable

// The route table, beside a resilient client of the same spec, from the pet
// store's spec and this folder's policy.
//go:generate go tool oapi-resilient generate -package routetable -dependency petstore -o routes.gen.go -policy policy.yaml -review REVIEW.md ../petstore/openapi.yaml
