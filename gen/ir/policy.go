package ir

import (
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// Level is the place in a document resilience policy was written.
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
	// LevelServiceConfig is a gRPC service config's methodConfig for one
	// method, below every level written in the document and the policy
	// file.
	LevelServiceConfig
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
	case LevelServiceConfig:
		return "service config"
	}
	return "unknown"
}

// PolicyLayer is the resilience policy written at one level of the
// input: an x-resilience value, a (resilient.v1.*) proto option, or the
// methodConfig of a gRPC service config, decoded by the front end that
// read it. Each field of Spec knows where it
// was written, so that the policy's diagnostics point at the key.
type PolicyLayer struct {
	Level Level
	// Spec is the decoded policy.
	Spec policyspec.Spec
	// Location is where the value is written: the x-resilience key, or
	// the option.
	diag.Location
}
