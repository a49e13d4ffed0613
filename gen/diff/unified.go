package diff

import (
	"bytes"
	"fmt"
	"strings"
)

// Unified returns the unified diff (as diff -u prints it, three lines of
// context) that turns old, the file named oldName, into new, the file
// named newName; empty when they are equal. A missing file is given as
// nil and named /dev/null by the caller.
func Unified(oldName, newName string, old, new []byte) string {
	if bytes.Equal(old, new) {
		return ""
	}
	a, b := splitLines(old), splitLines(new)
	edits := lineEdits(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	for i := 0; i < len(edits); {
		// Find the next change.
		for i < len(edits) && edits[i].op == ' ' {
			i++
		}
		if i == len(edits) {
			break
		}
		end := hunkEnd(edits, i)
		writeHunk(&out, edits[max(i-hunkContext, 0):end])
		i = end
	}
	return out.String()
}

// hunkContext is the number of unchanged lines shown around a change.
const hunkContext = 3

// hunkEnd returns the end of the hunk whose first change is edits[first]:
// the hunk extends while changes are within 2*hunkContext lines of each
// other, and ends hunkContext lines after its last change.
func hunkEnd(edits []edit, first int) int {
	end := first
	for end < len(edits) {
		if edits[end].op != ' ' {
			end++
			continue
		}
		run := end
		for run < len(edits) && edits[run].op == ' ' {
			run++
		}
		if run == len(edits) || run-end > 2*hunkContext {
			return min(end+hunkContext, len(edits))
		}
		end = run
	}
	return end
}

// writeHunk writes one hunk: its header and its lines.
func writeHunk(out *strings.Builder, hunk []edit) {
	aStart, bStart := hunk[0].a, hunk[0].b
	var aLen, bLen int
	for _, e := range hunk {
		if e.op != '+' {
			aLen++
		}
		if e.op != '-' {
			bLen++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
	for _, e := range hunk {
		line := e.text
		out.WriteByte(e.op)
		out.WriteString(line)
		if !strings.HasSuffix(line, "\n") {
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

// hunkRange formats a hunk's start and length as diff -u does: 1-based,
// the length left out when it is 1, the line before when it is 0.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// edit is one line of the diff: ' ' kept, '-' removed, '+' added; a and b
// are the line's index in old and new (for an added line, a is the index
// of the next old line, and conversely).
type edit struct {
	op   byte
	text string
	a, b int
}

func splitLines(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	s := string(data)
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// lineEdits computes a shortest edit script of a into b with Myers'
// O(ND) algorithm, after stripping the common prefix and suffix, which
// is where generated files mostly agree.
func lineEdits(a, b []string) []edit {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out []edit
	for i := 0; i < pre; i++ {
		out = append(out, edit{' ', a[i], i, i})
	}
	out = append(out, myers(a[pre:len(a)-suf], b[pre:len(b)-suf], pre, pre)...)
	for k := suf; k > 0; k-- {
		i, j := len(a)-k, len(b)-k
		out = append(out, edit{' ', a[i], i, j})
	}
	return out
}

// maxEditDistance bounds the work of myers: past it, the differing
// middle is shown as removed then added, which is still a correct diff.
const maxEditDistance = 2000

// myers returns a shortest edit script of a into b, whose lines start at
// aOff and bOff in the files, or, past maxEditDistance, every line of a
// removed and every line of b added.
func myers(a, b []string, aOff, bOff int) []edit {
	trace, found := myersTrace(a, b)
	if !found {
		return replaceAll(a, b, aOff, bOff)
	}
	return backtrack(trace, a, b, aOff, bOff)
}

// myersTrace runs the forward pass of Myers' algorithm and returns the
// frontiers it went through: trace[d] holds v[off-d-1 .. off+d+1] as it
// was before step d. found is false when the edit distance exceeds
// maxEditDistance.
func myersTrace(a, b []string) (trace [][]int, found bool) {
	n, m := len(a), len(b)
	maxD := min(n+m, maxEditDistance)
	off := n + m + 1
	v := make([]int, 2*(n+m)+3)
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if fromAbove(k, d, v[off+k-1], v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				return trace, true
			}
		}
	}
	return trace, false
}

// fromAbove tells whether the furthest path of step d on diagonal k comes
// from diagonal k+1 (an added line) rather than from k-1 (a removed
// line), given how far the paths on k-1 and k+1 reached.
func fromAbove(k, d, below, above int) bool {
	return k == -d || (k != d && below < above)
}

// replaceAll is the edit script that removes every line of a and adds
// every line of b.
func replaceAll(a, b []string, aOff, bOff int) []edit {
	n := len(a)
	out := make([]edit, 0, n+len(b))
	for i, s := range a {
		out = append(out, edit{'-', s, aOff + i, bOff})
	}
	for j, s := range b {
		out = append(out, edit{'+', s, aOff + n, bOff + j})
	}
	return out
}

// backtrack walks from (len(a), len(b)) back through the frontiers of
// trace and returns the edit script they lead to.
func backtrack(trace [][]int, a, b []string, aOff, bOff int) []edit {
	var rev []edit
	x, y := len(a), len(b)
	for d := len(trace) - 1; d >= 0; d-- {
		vd := trace[d]
		at := func(k int) int { return vd[k+d+1] }
		k := x - y
		var prevK int
		if fromAbove(k, d, at(k-1), at(k+1)) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := 0
		if d > 0 {
			prevX = at(prevK)
		}
		prevY := prevX - prevK
		if d == 0 {
			prevX, prevY = 0, 0
		}
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, edit{' ', a[x], aOff + x, bOff + y})
		}
		if d > 0 {
			if x == prevX {
				y--
				rev = append(rev, edit{'+', b[y], aOff + x, bOff + y})
			} else {
				x--
				rev = append(rev, edit{'-', a[x], aOff + x, bOff + y})
			}
		}
		x, y = prevX, prevY
	}
	out := make([]edit, len(rev))
	for i, e := range rev {
		out[len(rev)-1-i] = e
	}
	return out
}
