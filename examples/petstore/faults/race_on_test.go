//go:build race

package faults

// raceDetector is true when the tests run with -race: see long.
const raceDetector = true
