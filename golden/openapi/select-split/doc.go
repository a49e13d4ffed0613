// Package selectsplit is the golden case select-split of oapi-resilient:
// -include and -exclude (flags.txt) keep the operations of the tag pets,
// the operation health and those under /stores but deleteStore, and with
// them only the model types they reach (Pet, its Owner and Kind through a
// cycle, Store, Error), not User and Address; -split writes the client as
// files of one package: client.gen.go (the client, its options and policy
// table, the helpers), client_pets.gen.go, client_pet_stores.gen.go (the
// tag "Pet Stores"), client_path_health.gen.go (the untagged health, by
// its path's first segment) and client_models.gen.go. The package builds,
// so the files fit together.
//
// openapi.yaml (with the flags of flags.txt) is the input; the
// client*.gen.go files and review.md are the expected output, compared
// byte for byte by go test ./golden and rewritten by go test ./golden
// -update.
package selectsplit
