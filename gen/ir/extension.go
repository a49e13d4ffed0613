package ir

import "github.com/resilientgo/resilient/policyspec/diag"

// Level is the place in a document a resilience extension was written.
// Later levels are narrower and override wider ones.
type Level int

// Levels, widest first.
const (
	// LevelDocument is the document root.
	LevelDocument Level = iota + 1
	// LevelPathItem is a path item, shared by its operations.
	LevelPathItem
	// LevelOperation is one operation.
	LevelOperation
	// LevelService is a gRPC service (the (resilient.v1.service) option);
	// a gRPC file's (resilient.v1.file) option is LevelDocument.
	LevelService
)

// String returns the level's name.
func (l Level) String() string {
	switch l {
	case LevelDocument:
		return "document"
	case LevelPathItem:
		return "path item"
	case LevelOperation:
		return "operation"
	case LevelService:
		return "service"
	}
	return "unknown"
}

// Extension is a raw x-resilience value, exactly as decoded from the
// document (maps, slices, strings, numbers, booleans, nil). The IR does not
// interpret it; policy decoding and validation happen later, using diag.Location
// for their diagnostics.
type Extension struct {
	Level Level
	Value any
	// Snake reports that the keys are in snake_case ("max_retries"), as
	// the proto options spell them; x-resilience keys are camelCase.
	Snake bool
	// Positions gives, when the front end knows them, where each key
	// inside Value was written, by JSON pointer relative to the value
	// ("/retry/maxRetries"), so that diagnostics can point at the key
	// rather than at the extension. It may be nil.
	Positions map[string]diag.Location
	diag.Location
}
