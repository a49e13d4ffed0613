#!/usr/bin/env bash
# Times protoc-gen-resilient against protoc-gen-go-grpc v1.6.2 on the same
# serialized CodeGeneratorRequest: one synthetic service of METHODS methods
# (default 200), RUNS runs of each plugin (default 50). Needs protoc and go.
# Target: protoc-gen-resilient within 1.5x of protoc-gen-go-grpc.
#
#   gen/bench/compare-protoc-gen-go-grpc.sh [METHODS] [RUNS]
set -euo pipefail
methods=${1:-200}
runs=${2:-50}
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$root" && go build -o "$work/protoc-gen-resilient" ./cmd/protoc-gen-resilient)
GOBIN="$work" GOFLAGS=-buildvcs=false go install google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2

{
	echo 'syntax = "proto3";'
	echo 'package bench.v1;'
	echo 'option go_package = "example.com/bench/v1;benchv1";'
	echo 'message Req { string id = 1; }'
	echo 'message Res { string id = 1; }'
	echo 'service Bench {'
	for i in $(seq 1 "$methods"); do
		case $((i % 4)) in
		0) echo "  rpc Get$i(Req) returns (Res) { option idempotency_level = NO_SIDE_EFFECTS; }" ;;
		1) echo "  rpc Put$i(Req) returns (Res) { option idempotency_level = IDEMPOTENT; }" ;;
		2) echo "  rpc Post$i(Req) returns (Res);" ;;
		3) echo "  rpc Watch$i(Req) returns (stream Res);" ;;
		esac
	done
	echo '}'
} >"$work/bench.proto"

# A plugin that only keeps the request protoc sends.
printf '#!/bin/sh\ncat > "%s/request.bin"\n' "$work" >"$work/protoc-gen-dump"
chmod +x "$work/protoc-gen-dump"
protoc -I "$work" --plugin=protoc-gen-dump="$work/protoc-gen-dump" --dump_out="$work" bench.proto

time_plugin() { # name binary
	local start end
	"$2" <"$work/request.bin" >/dev/null # warm up
	start=$(date +%s%N)
	for _ in $(seq 1 "$runs"); do "$2" <"$work/request.bin" >/dev/null; done
	end=$(date +%s%N)
	echo $(((end - start) / runs / 1000))
}
grpc=$(time_plugin protoc-gen-go-grpc "$work/protoc-gen-go-grpc")
ours=$(time_plugin protoc-gen-resilient "$work/protoc-gen-resilient")
echo "methods=$methods runs=$runs"
echo "protoc-gen-go-grpc:   ${grpc} µs/run"
echo "protoc-gen-resilient: ${ours} µs/run"
awk -v a="$ours" -v b="$grpc" 'BEGIN { r = a / b; printf "ratio: %.2fx (target <= 1.5x) %s\n", r, (r <= 1.5 ? "ok" : "OVER") }'
