package protoir

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	resilientv1 "github.com/resilientgo/resilient/annotations/resilient/v1"
	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec"
	"github.com/resilientgo/resilient/policyspec/diag"
	"github.com/resilientgo/resilient/runtime"
)

// optionsField is the field number of the options message in the
// descriptor of a file, a service and a method, for source locations.
const (
	fileOptionsField    = 8
	serviceOptionsField = 3
	methodOptionsField  = 4
)

// policyOption reads the resilience option xt of the descriptor d, whose
// source path is descPath and whose options are field optionsField of it,
// into a policy layer; nil when it is not set. The option's fields are
// read as typed values: each is located at the option statement that
// sets it (the field's own line when written as
// "option (resilient.v1.method).timeout = ..."), named as the author
// spelled it ("(resilient.v1.method).attempt_timeout"), and checked by
// package policyspec.
func policyOption(f *protogen.File, d protoreflect.Descriptor, descPath protoreflect.SourcePath, optionsField int32, level ir.Level, xt protoreflect.ExtensionType, list *diag.List) *ir.PolicyLayer {
	loc := location(f, d)
	opts, err := typedOptions(d.Options())
	if err != nil {
		list.Errorf(loc, diag.RuleOption, fmt.Sprintf("options of %s cannot be read: %v", d.FullName(), err), "")
		return nil
	}
	if opts == nil || !proto.HasExtension(opts, xt) {
		return nil
	}
	optName := "(" + string(xt.TypeDescriptor().FullName()) + ")"
	if loc.Path == "" {
		loc.Path = optName
	} else {
		loc.Path += "." + optName
	}
	msg, ok := proto.GetExtension(opts, xt).(proto.Message)
	if !ok {
		return nil
	}
	r := optionReader{f: f, base: append(append(protoreflect.SourcePath{}, descPath...), optionsField, int32(xt.TypeDescriptor().Number())), loc: loc, list: list}
	r.loc = r.at(nil, "")
	r.message(msg.ProtoReflect(), "", nil)
	spec, err := policyspec.DecodeWritten(r.values, r.loc)
	list.AddErr(err)
	return &ir.PolicyLayer{Level: level, Spec: spec, Location: r.loc}
}

// optionReader turns the fields of a policy option into typed values.
type optionReader struct {
	f    *protogen.File
	base protoreflect.SourcePath
	// loc is the option's location, its Path the option's name.
	loc    diag.Location
	list   *diag.List
	values []policyspec.Written
}

// at locates the option's field at path (field numbers below the option)
// named key: at the deepest option statement the source records for it,
// else at the descriptor.
func (r *optionReader) at(path []int32, key string) diag.Location {
	loc := r.loc
	if key != "" {
		loc.Path += "." + key
	}
	for n := len(path); n >= 0; n-- {
		full := append(append(protoreflect.SourcePath{}, r.base...), path[:n]...)
		if sl := r.f.Desc.SourceLocations().ByPath(full); sl.Path != nil {
			loc.Line, loc.Col = sl.StartLine+1, sl.StartColumn+1
			return loc
		}
	}
	return loc
}

// message reads the set fields of m, in field order, their keys below
// prefix and their field numbers below path.
func (r *optionReader) message(m protoreflect.Message, prefix string, path []int32) {
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if m.Has(fd) {
			r.field(fd, m.Get(fd), prefix+string(fd.Name()), append(append([]int32{}, path...), int32(fd.Number())))
		}
	}
}

// field reads v, the value of the set field fd, as key; path holds the
// field numbers down to it.
func (r *optionReader) field(fd protoreflect.FieldDescriptor, v protoreflect.Value, key string, path []int32) {
	loc := r.at(path, key)
	switch {
	case fd.Message() != nil && fd.Message().FullName() == "google.protobuf.Duration":
		r.addDuration(v.Message(), key, loc)
	case fd.Message() != nil:
		r.message(v.Message(), key+".", path)
	case fd.Enum() != nil:
		r.addFallbackKind(v.Enum(), key, loc)
	case key == "fallback.value":
		r.addFallbackValue(v.String(), key, loc)
	case fd.Kind() == protoreflect.BoolKind:
		r.add(key, v.Bool(), loc)
	case fd.Kind() == protoreflect.StringKind:
		r.add(key, v.String(), loc)
	case fd.Kind() == protoreflect.Uint32Kind:
		r.add(key, v.Uint(), loc)
	case fd.Kind() == protoreflect.DoubleKind:
		r.add(key, v.Float(), loc)
	default:
		r.list.Errorf(loc, diag.RuleOption, fmt.Sprintf("%s has a type the generator does not read (%s)", key, fd.Kind()), "report this with the .proto file")
	}
}

// addDuration adds the google.protobuf.Duration m as key, or reports one
// out of range.
func (r *optionReader) addDuration(m protoreflect.Message, key string, loc diag.Location) {
	d, ok := duration(m)
	if !ok {
		r.list.Errorf(loc, diag.RuleOption, fmt.Sprintf("%s is not a duration: its seconds and nanos have different signs, or it is out of range", key),
			"write e.g. {seconds: 1 nanos: 500000000}, both of the same sign")
		return
	}
	r.add(key, d, loc)
}

// addFallbackKind adds the FallbackKind n as key, as the runtime's
// fallback kind; the unspecified kind adds nothing.
func (r *optionReader) addFallbackKind(n protoreflect.EnumNumber, key string, loc diag.Location) {
	switch resilientv1.FallbackKind(n) {
	case resilientv1.FallbackKind_FALLBACK_KIND_NONE:
		r.add(key, runtime.FallbackNone, loc)
	case resilientv1.FallbackKind_FALLBACK_KIND_CACHED:
		r.add(key, runtime.FallbackCached, loc)
	case resilientv1.FallbackKind_FALLBACK_KIND_STATIC:
		r.add(key, runtime.FallbackStatic, loc)
	}
}

// addFallbackValue adds the JSON text s as key, decoded with its numbers
// kept as written, or reports text that is not JSON.
func (r *optionReader) addFallbackValue(s, key string, loc diag.Location) {
	var x any
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	if err := d.Decode(&x); err != nil {
		r.list.Errorf(loc, diag.RuleOption, "fallback.value is not JSON: "+err.Error(), "write the response message in protobuf JSON")
		return
	}
	r.add(key, x, loc)
}

func (r *optionReader) add(key string, v any, loc diag.Location) {
	r.values = append(r.values, policyspec.Written{Key: key, Value: v, Loc: loc})
}

// duration converts a google.protobuf.Duration message; false when its
// seconds and nanos disagree in sign or it does not fit a time.Duration.
func duration(m protoreflect.Message) (time.Duration, bool) {
	fields := m.Descriptor().Fields()
	secs := m.Get(fields.ByName("seconds")).Int()
	nanos := m.Get(fields.ByName("nanos")).Int()
	if nanos <= -1e9 || nanos >= 1e9 || secs > 0 && nanos < 0 || secs < 0 && nanos > 0 {
		return 0, false
	}
	if secs > math.MaxInt64/int64(time.Second)-1 || secs < math.MinInt64/int64(time.Second)+1 {
		return 0, false
	}
	return time.Duration(secs)*time.Second + time.Duration(nanos), true
}

// typedOptions re-reads an options message with the extensions linked
// into this program, so that an extension set by a compiler that knew it
// only dynamically comes back as its Go type.
func typedOptions(opts proto.Message) (proto.Message, error) {
	if opts == nil || !opts.ProtoReflect().IsValid() {
		return nil, nil
	}
	b, err := proto.Marshal(opts)
	if err != nil {
		return nil, err
	}
	fresh := opts.ProtoReflect().New().Interface()
	if err := (proto.UnmarshalOptions{Resolver: protoregistry.GlobalTypes}).Unmarshal(b, fresh); err != nil {
		return nil, err
	}
	return fresh, nil
}
