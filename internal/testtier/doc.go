// Package testtier splits the test suite in two tiers.
//
// The default tier is what "go test ./..." runs: every unit test and every
// golden test, in-process, on fake time where time matters. It finishes in
// well under a minute on two cores.
//
// The slow tier adds what builds or runs other programs or waits on the
// wall clock: the corpus (gen/testdata/corpus) generated and built in a temporary module,
// the real protoc and its plugins, the dependency check of a fresh module,
// the fault-injection scenarios and the demo's own run. It runs when the
// environment variable RESILIENT_SLOW is 1 (or true), as .ci/run sets it:
//
//	RESILIENT_SLOW=1 go test -race -timeout 30m work
//
// A slow test opens with one line:
//
//	func TestCorpus(t *testing.T) {
//		testtier.Slow(t)
//		...
//	}
//
// "go test -short" skips the slow tier even when RESILIENT_SLOW is set.
// A value of RESILIENT_SLOW that is neither true nor false fails the test
// instead of skipping it, so that a typo never turns the tier off unseen.
package testtier
