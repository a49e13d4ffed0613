#!/usr/bin/env bash
# compile-cost.sh measures what compiling generated Go packages costs: for
# each DIR (a module or a package of one, holding a generated client), the
# dependencies are built first, then the package alone is compiled N times
# (its files touched between runs, so that the build cache cannot answer),
# interleaving the packages so that a load spike on a shared machine hits
# them alike. It prints per package the lines of Go, the median wall and
# CPU (user + system) seconds and the median and maximum peak RSS of the
# compiler (GNU time -v).
#
# Usage:
#
#	gen/bench/compile-cost.sh N DIR...
#
# Needs Go and GNU time at /usr/bin/time. gen/bench/README.md shows how the
# clients measured there were made.
set -euo pipefail

runs=${1:?usage: compile-cost.sh N DIR...}
shift
[ -x /usr/bin/time ] || { echo "GNU time is needed at /usr/bin/time" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

declare -A pkg
for dir in "$@"; do
	rm -f "$dir/zz_compile_cost_run.go"
	pkg[$dir]=$(cd "$dir" && go list -f '{{.Name}}' .)
	(cd "$dir" && go build ./...) || { echo "$dir does not build" >&2; exit 1; }
done
for ((i = 0; i < runs; i++)); do
	for dir in "$@"; do
		find "$dir" -maxdepth 1 -name '*.go' -exec touch {} +
		# A changed comment makes the compiler run again: the build cache
		# keys on content, not on times.
		printf 'package %s\n\n// run %d\n' "${pkg[$dir]}" "$i" >"$dir/zz_compile_cost_run.go"
		key=$(echo "$dir" | md5sum | cut -c1-8)
		/usr/bin/time -f "%e %U %S %M" -o "$work/$key.$i" sh -c "cd '$dir' && go build ./..."
	done
done
printf '| package | lines | runs | wall s (median) | CPU s (median) | peak RSS MiB (median / max) |\n|---|---|---|---|---|---|\n'
for dir in "$@"; do
	rm -f "$dir/zz_compile_cost_run.go"
	key=$(echo "$dir" | md5sum | cut -c1-8)
	lines=$(cat "$dir"/*.go | wc -l)
	files=$(ls "$dir"/*.go | wc -l)
	cat "$work/$key".* | awk -v name="$(basename "$dir") ($files files)" -v lines="$lines" -v n="$runs" '
		{ wall[NR] = $1; cpu[NR] = $2 + $3; rss[NR] = $4 }
		function median(a, k, i, j, t) {
			for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
			return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
		}
		END {
			max = 0; for (i = 1; i <= NR; i++) if (rss[i] > max) max = rss[i]
			printf "| %s | %d | %d | %.1f | %.1f | %.0f / %.0f |\n", name, lines, n, median(wall, NR), median(cpu, NR), median(rss, NR) / 1024, max / 1024
		}'
done
