//go:build !race

package main

// raceDetector is true when the tests run with -race: see long.
const raceDetector = false
