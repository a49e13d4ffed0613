module github.com/resilientgo/resilient/runtime/resilientgrpc

go 1.26.0

require (
	github.com/resilientgo/resilient/runtime v0.0.0
	go.uber.org/goleak v1.3.0
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/sony/gobreaker/v2 v2.4.0 // indirect
	golang.org/x/net v0.60.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.42.0 // indirect
	golang.org/x/time v0.16.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20261019180522-ce908d29299b // indirect
)

replace github.com/resilientgo/resilient/runtime => ../
