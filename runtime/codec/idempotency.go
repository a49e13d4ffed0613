package codec

import "crypto/rand"

// NewIdempotencyKey returns a fresh idempotency key: a random (version 4)
// UUID from crypto/rand, such as "9b2f6f3e-5c1d-4e8a-a1f0-3c7d2b9e4f61".
// Generated clients call it once per logical call of an operation with an
// idempotency key header and send the same key on every attempt, so that
// the dependency can recognise a retry of a request it already applied.
// It is safe for concurrent use.
func NewIdempotencyKey() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand.Read panics on failure instead)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	const hex = "0123456789abcdef"
	var out [36]byte
	j := 0
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out[j] = '-'
			j++
		}
		out[j], out[j+1] = hex[c>>4], hex[c&0x0f]
		j += 2
	}
	return string(out[:])
}
