package runtime

// SupportPackageIsVersion1 is referenced by generated clients so that code
// generated for a newer runtime fails to compile against an older one,
// with an error naming this constant, instead of misbehaving at run time.
// A generated file that refers to a version this package does not define
// needs a newer github.com/resilientgo/resilient module:
//
//	go get github.com/resilientgo/resilient@latest
//
// Versions are only ever added, never removed while generated code may
// still use them.
const SupportPackageIsVersion1 = true
