package diff

import (
	"fmt"
	"strings"

	"google.golang.org/protobuf/compiler/protogen"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/gen/resolve"
	"github.com/resilientgo/resilient/policyspec/diag"
)

// Rule ids of the proto wire rules, after buf breaking's FILE and WIRE
// categories; the package documentation describes each.
const (
	RuleProtoFieldRemoved     = "PROTO-FIELD-REMOVED"
	RuleProtoFieldAdded       = "PROTO-FIELD-ADDED"
	RuleProtoFieldType        = "PROTO-FIELD-TYPE"
	RuleProtoFieldName        = "PROTO-FIELD-NAME"
	RuleProtoFieldCardinality = "PROTO-FIELD-CARDINALITY"
	RuleProtoFieldOneof       = "PROTO-FIELD-ONEOF"
	RuleProtoEnumValueRemoved = "PROTO-ENUM-VALUE-REMOVED"
	RuleProtoEnumValueAdded   = "PROTO-ENUM-VALUE-ADDED"
	RuleProtoMethodType       = "PROTO-METHOD-TYPE"
	RuleProtoStreaming        = "PROTO-STREAMING"
	RuleProtoIdempotency      = "PROTO-IDEMPOTENCY-LEVEL"
)

// ProtoInput is one version of a set of .proto files as [CompareProto]
// reads it.
type ProtoInput struct {
	// Name names the version in the report.
	Name string
	// Plugin holds the files' descriptors, as protoc-gen-resilient sees
	// them.
	Plugin *protogen.Plugin
	// Services are the services of the files to generate, with their
	// resolved policy.
	Services []*resolve.Service
	// API is the Go API of the generated code (see [ProtoGoAPI]); nil
	// leaves the Go API section empty.
	API *GoAPI
	// PolicyErrors are as in [Input].
	PolicyErrors []diag.Diagnostic
}

// CompareProto reports what changed from old to new: per service
// (matched by full name) and method, the resilience policy, the Go API of
// the generated code (protoc-gen-go's messages, protoc-gen-go-grpc's
// client interfaces, protoc-gen-resilient's constructors and options),
// and the wire: methods, their streaming and message types, and the
// fields and enum values of every message they reach, by number.
func CompareProto(old, new ProtoInput) *Report {
	r := &Report{Old: old.Name, New: new.Name}
	oldSvc := map[string]*resolve.Service{}
	for _, s := range old.Services {
		oldSvc[s.IR.FullName] = s
	}
	var pairs []opPair
	newNames := map[string]bool{}
	for _, ns := range new.Services {
		newNames[ns.IR.FullName] = true
		os := oldSvc[ns.IR.FullName]
		if os == nil {
			os = &resolve.Service{IR: emptyLike(ns), Dependency: ns.Dependency}
		}
		p := pairOperations(os, ns)
		compareResilience(r, os, ns, p)
		pairs = append(pairs, p...)
	}
	for _, os := range old.Services {
		if newNames[os.IR.FullName] {
			continue
		}
		ns := &resolve.Service{IR: emptyLike(os), Dependency: os.Dependency}
		p := pairOperations(os, ns)
		compareResilience(r, os, ns, p)
		pairs = append(pairs, p...)
	}
	refused(r, old.PolicyErrors, new.PolicyErrors)
	if old.API != nil && new.API != nil {
		compareGoAPI(r, old.API, new.API, pairs)
	}
	pw := &protoWire{r: r, named: map[[3]string][]Change{}}
	pw.w = &wire{r: r}
	for _, p := range pairs {
		pw.w.op = p.name
		switch {
		case p.new == nil:
			pw.w.add(RuleWireOpRemoved, Breaking, "", "", "", "the RPC is gone: calls of it fail with Unimplemented")
		case p.old == nil:
			pw.w.add(RuleWireOpAdded, Compatible, "", "", "", "a new RPC")
		default:
			pw.w.operation(p.old.Operation, p.new.Operation)
			pw.method(p, old.Plugin, new.Plugin)
		}
	}
	r.sort()
	return r
}

// emptyLike returns a service of the same name with no operation.
func emptyLike(s *resolve.Service) *ir.Service {
	c := *s.IR
	c.Operations = nil
	return &c
}

// protoWire compares the messages of RPCs.
type protoWire struct {
	r     *Report
	w     *wire
	named map[[3]string][]Change
}

// methodDesc finds the descriptor of an RPC by its full method name.
func methodDesc(p *protogen.Plugin, fullMethod string) protoreflect.MethodDescriptor {
	svc, m, _ := strings.Cut(strings.TrimPrefix(fullMethod, "/"), "/")
	for _, f := range p.Files {
		for _, s := range f.Services {
			if string(s.Desc.FullName()) == svc {
				if md := s.Desc.Methods().ByName(protoreflect.Name(m)); md != nil {
					return md
				}
			}
		}
	}
	return nil
}

func (pw *protoWire) method(p opPair, oldPlugin, newPlugin *protogen.Plugin) {
	om, nm := methodDesc(oldPlugin, p.old.RPC.FullMethod), methodDesc(newPlugin, p.new.RPC.FullMethod)
	if om == nil || nm == nil {
		return
	}
	if ok, nk := p.old.RPC.Kind, p.new.RPC.Kind; ok != nk {
		pw.w.add(RuleProtoStreaming, Breaking, "streaming", ok.String(), nk.String(), "the RPC streams differently: the old client's calls fail")
	}
	ol, nl := idempotencyLevel(om), idempotencyLevel(nm)
	if ol != nl {
		pw.w.add(RuleProtoIdempotency, Breaking, "idempotency_level", ol, nl, "the RPC's idempotency level changed (see the Resilience section for what it does to retries)")
	}
	for _, side := range []struct {
		subject  string
		dir      direction
		old, new protoreflect.MessageDescriptor
	}{{"request", request, om.Input(), nm.Input()}, {"response", response, om.Output(), nm.Output()}} {
		if side.old.FullName() != side.new.FullName() {
			pw.w.add(RuleProtoMethodType, Breaking, side.subject+" type", string(side.old.FullName()), string(side.new.FullName()), "the RPC takes or returns another message")
			continue
		}
		pw.message(side.dir, side.subject+" "+string(side.new.FullName()), side.old, side.new)
	}
}

func idempotencyLevel(m protoreflect.MethodDescriptor) string {
	opts, _ := m.Options().(*descriptorpb.MethodOptions)
	return opts.GetIdempotencyLevel().String()
}

// message compares two versions of a message, once per pair and
// direction, replaying its changes at every use.
func (pw *protoWire) message(dir direction, subject string, o, n protoreflect.MessageDescriptor) {
	key := [3]string{string(o.FullName()), string(n.FullName()), fmt.Sprint(dir)}
	changes, done := pw.named[key]
	if !done {
		pw.named[key] = nil
		sink := pw.w.sink
		changes = []Change{}
		pw.w.sink = &changes
		pw.fields(dir, o, n)
		pw.w.sink = sink
		pw.named[key] = changes
	}
	for _, c := range changes {
		c.Operation = pw.w.op
		c.Subject = subject + c.Subject
		if pw.w.sink != nil {
			*pw.w.sink = append(*pw.w.sink, c)
		} else {
			pw.r.add(c)
		}
	}
}

func fieldLabel(f protoreflect.FieldDescriptor) string {
	switch {
	case f.IsMap():
		return "map"
	case f.IsList():
		return "repeated"
	case f.HasPresence() && f.Message() == nil:
		return "optional"
	}
	return "singular"
}

func fieldType(f protoreflect.FieldDescriptor) string {
	switch {
	case f.IsMap():
		return "map<" + fieldType(f.MapKey()) + ", " + fieldType(f.MapValue()) + ">"
	case f.Message() != nil:
		return string(f.Message().FullName())
	case f.Enum() != nil:
		return string(f.Enum().FullName())
	}
	return f.Kind().String()
}

// wireGroup is the group of scalar kinds that read each other's values on
// the wire (buf's FIELD_WIRE_COMPATIBLE_TYPE).
func wireGroup(k protoreflect.Kind) string {
	switch k {
	case protoreflect.Int32Kind, protoreflect.Uint32Kind, protoreflect.Int64Kind, protoreflect.Uint64Kind, protoreflect.BoolKind:
		return "varint"
	case protoreflect.Sint32Kind, protoreflect.Sint64Kind:
		return "zigzag"
	case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind:
		return "fixed32"
	case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind:
		return "fixed64"
	case protoreflect.StringKind, protoreflect.BytesKind:
		return "bytes"
	}
	return k.String()
}

func reserved(m protoreflect.MessageDescriptor, num protoreflect.FieldNumber) bool {
	return m.ReservedRanges().Has(num)
}

// fields compares the fields of two versions of a message, o and n, by
// number: removed, changed, added.
func (pw *protoWire) fields(dir direction, o, n protoreflect.MessageDescriptor) {
	of, nf := o.Fields(), n.Fields()
	for i := 0; i < of.Len(); i++ {
		f := of.Get(i)
		s := fmt.Sprintf(": field %d (%s)", f.Number(), f.Name())
		if g := nf.ByNumber(f.Number()); g != nil {
			pw.field(dir, s, f, g)
		} else {
			pw.removedField(s, f, n)
		}
	}
	for i := 0; i < nf.Len(); i++ {
		g := nf.Get(i)
		if of.ByNumber(g.Number()) == nil {
			pw.w.add(RuleProtoFieldAdded, Compatible, fmt.Sprintf(": field %d (%s)", g.Number(), g.Name()), "", fieldType(g), "a new field")
		}
	}
}

// removedField reports the field f, subject s, that the new version n of
// its message no longer has: a warning when n reserves its number.
func (pw *protoWire) removedField(s string, f protoreflect.FieldDescriptor, n protoreflect.MessageDescriptor) {
	if reserved(n, f.Number()) {
		pw.w.add(RuleProtoFieldRemoved, Warning, s, fieldType(f), "reserved", "the field is gone and its number reserved: the old client's value is ignored, or the answer lacks it")
		return
	}
	pw.w.add(RuleProtoFieldRemoved, Breaking, s, fieldType(f), "", "the field is gone and its number not reserved: a later field may reuse it with another meaning")
}

// field compares two versions, f and g, of the field of one number,
// subject s: its name, cardinality, oneof and type, then, if the type is
// the same, the message or enum it holds.
func (pw *protoWire) field(dir direction, s string, f, g protoreflect.FieldDescriptor) {
	if f.Name() != g.Name() {
		pw.w.add(RuleProtoFieldName, Warning, s, string(f.Name()), string(g.Name()), "the field has a new name: the binary wire is the same, JSON and the Go field are not")
	}
	if fl, gl := fieldLabel(f), fieldLabel(g); !sameCardinality(fl, gl) {
		pw.w.add(RuleProtoFieldCardinality, Breaking, s, fl, gl, "the field's cardinality changed: values are read differently")
	}
	if fo, go_ := oneofName(f), oneofName(g); fo != go_ {
		pw.w.add(RuleProtoFieldOneof, Breaking, s, orNone(fo), orNone(go_), "the field moved into or out of a oneof: setting it may now clear another field")
	}
	if fieldType(f) != fieldType(g) {
		pw.typeChange(dir, s, f, g)
		return
	}
	pw.fieldContent(dir, s, f, g)
}

// sameCardinality reports whether the labels (see fieldLabel) of two
// versions of a field read values alike: equal, or singular and optional.
func sameCardinality(fl, gl string) bool {
	return fl == gl || fl == "singular" && gl == "optional" || fl == "optional" && gl == "singular"
}

// oneofName is the name of the real oneof f belongs to, or "".
func oneofName(f protoreflect.FieldDescriptor) string {
	if o := f.ContainingOneof(); o != nil && !o.IsSynthetic() {
		return string(o.Name())
	}
	return ""
}

// typeChange reports the type of a field, subject s, changed from f's
// to g's: a warning when the old values still decode, another enum's
// values then compared.
func (pw *protoWire) typeChange(dir direction, s string, f, g protoreflect.FieldDescriptor) {
	ft, gt := fieldType(f), fieldType(g)
	switch {
	case f.Enum() != nil && g.Enum() != nil && f.IsList() == g.IsList():
		pw.w.add(RuleProtoFieldType, Warning, s, ft, gt, "another enum type: the same numbers decode, their values are compared below")
		pw.enum(dir, s, f.Enum(), g.Enum())
	case f.Message() == nil && g.Message() == nil && f.Enum() == nil && g.Enum() == nil && wireGroup(f.Kind()) == wireGroup(g.Kind()):
		pw.w.add(RuleProtoFieldType, Warning, s, ft, gt, "the type changed within one wire encoding: values still decode, but may be truncated or misread")
	default:
		pw.w.add(RuleProtoFieldType, Breaking, s, ft, gt, "the field's type changed: the old client's values no longer decode")
	}
}

// fieldContent compares the messages or enums two versions of a field
// of the same type, subject s, hold: a map's values, a message, an enum.
func (pw *protoWire) fieldContent(dir direction, s string, f, g protoreflect.FieldDescriptor) {
	switch {
	case f.IsMap() && f.MapValue().Message() != nil:
		pw.message(dir, s+" value", f.MapValue().Message(), g.MapValue().Message())
	case f.Message() != nil && !f.IsMap():
		pw.message(dir, s, f.Message(), g.Message())
	case f.Enum() != nil:
		pw.enum(dir, s, f.Enum(), g.Enum())
	}
}

func (pw *protoWire) enum(dir direction, subject string, o, n protoreflect.EnumDescriptor) {
	ov, nv := o.Values(), n.Values()
	for i := 0; i < ov.Len(); i++ {
		v := ov.Get(i)
		if nv.ByNumber(v.Number()) != nil {
			continue
		}
		s := fmt.Sprintf("%s: value %d (%s)", subject, v.Number(), v.Name())
		switch {
		case dir == response:
			pw.w.add(RuleProtoEnumValueRemoved, Compatible, s, string(v.Name()), "", "an enum value is no longer answered")
		case n.ReservedRanges().Has(v.Number()):
			pw.w.add(RuleProtoEnumValueRemoved, Warning, s, string(v.Name()), "reserved", "an enum value the client may send is gone, its number reserved")
		default:
			pw.w.add(RuleProtoEnumValueRemoved, Breaking, s, string(v.Name()), "", "an enum value the client may send is gone, its number not reserved")
		}
	}
	for i := 0; i < nv.Len(); i++ {
		v := nv.Get(i)
		if ov.ByNumber(v.Number()) != nil {
			continue
		}
		s := fmt.Sprintf("%s: value %d (%s)", subject, v.Number(), v.Name())
		if dir == response {
			pw.w.add(RuleProtoEnumValueAdded, Warning, s, "", string(v.Name()), "a new enum value in answers: code that switches over the known values misses it")
		} else {
			pw.w.add(RuleProtoEnumValueAdded, Compatible, s, "", string(v.Name()), "a new enum value")
		}
	}
}

// ProtoGoAPI returns the Go API of the code generated for the files to
// generate of plugin that define a service: protoc-gen-go's message and
// enum declarations (struct fields, oneof wrapper types, enum constants),
// protoc-gen-go-grpc's client interfaces, and the declarations of
// protoc-gen-resilient's files, code.
func ProtoGoAPI(plugin *protogen.Plugin, code ...[]byte) (*GoAPI, error) {
	a, err := ParseGoAPI("resilient.pb.go", code...)
	if err != nil {
		return nil, err
	}
	for _, f := range plugin.Files {
		if !f.Generate || len(f.Services) == 0 {
			continue
		}
		for _, e := range f.Enums {
			protoEnum(a, e)
		}
		for _, m := range f.Messages {
			protoMessage(a, m)
		}
		for _, s := range f.Services {
			name := s.GoName + "Client"
			a.Add("type "+name, "interface")
			for _, m := range s.Methods {
				in, out := "*"+m.Input.GoIdent.GoName, "*"+m.Output.GoIdent.GoName
				var sig string
				switch {
				case m.Desc.IsStreamingClient() && m.Desc.IsStreamingServer():
					sig = "func(context.Context, ...grpc.CallOption) (grpc.BidiStreamingClient[" + in[1:] + ", " + out[1:] + "], error)"
				case m.Desc.IsStreamingClient():
					sig = "func(context.Context, ...grpc.CallOption) (grpc.ClientStreamingClient[" + in[1:] + ", " + out[1:] + "], error)"
				case m.Desc.IsStreamingServer():
					sig = "func(context.Context, " + in + ", ...grpc.CallOption) (grpc.ServerStreamingClient[" + out[1:] + "], error)"
				default:
					sig = "func(context.Context, " + in + ", ...grpc.CallOption) (" + out + ", error)"
				}
				a.Add("method "+name+"."+m.GoName, sig)
			}
		}
	}
	return a, nil
}

// ProtoGoAPIs returns the Go APIs of two versions (see [ProtoGoAPI]),
// each with protoc-gen-resilient's files for it (protocgen.ProtoSnapshot.Code);
// when one version comes without them (nil), both are read without, so
// that their absence is not reported as a change.
func ProtoGoAPIs(oldPlugin, newPlugin *protogen.Plugin, oldCode, newCode [][]byte) (*GoAPI, *GoAPI, error) {
	if oldCode == nil || newCode == nil {
		oldCode, newCode = nil, nil
	}
	o, err := ProtoGoAPI(oldPlugin, oldCode...)
	if err != nil {
		return nil, nil, err
	}
	n, err := ProtoGoAPI(newPlugin, newCode...)
	if err != nil {
		return nil, nil, err
	}
	return o, n, nil
}

func protoEnum(a *GoAPI, e *protogen.Enum) {
	a.Add("type "+e.GoIdent.GoName, "int32")
	for _, v := range e.Values {
		a.Add("const "+v.GoIdent.GoName, e.GoIdent.GoName)
	}
}

func protoMessage(a *GoAPI, m *protogen.Message) {
	if m.Desc.IsMapEntry() {
		return
	}
	name := m.GoIdent.GoName
	a.Add("type "+name, "struct")
	seen := map[*protogen.Oneof]bool{}
	for _, f := range m.Fields {
		if o := f.Oneof; o != nil && !o.Desc.IsSynthetic() {
			if !seen[o] {
				seen[o] = true
				a.Add("field "+name+"."+o.GoName, "is"+o.GoIdent.GoName)
			}
			a.Add("type "+f.GoIdent.GoName, "struct")
			a.Add("field "+f.GoIdent.GoName+"."+f.GoName, goFieldType(f, false))
			continue
		}
		a.Add("field "+name+"."+f.GoName, goFieldType(f, true))
	}
	for _, e := range m.Enums {
		protoEnum(a, e)
	}
	for _, nested := range m.Messages {
		protoMessage(a, nested)
	}
}

// goFieldType is the Go type protoc-gen-go gives a field.
func goFieldType(f *protogen.Field, presence bool) string {
	if f.Desc.IsMap() {
		return "map[" + goFieldType(f.Message.Fields[0], false) + "]" + goFieldType(f.Message.Fields[1], false)
	}
	var t string
	switch {
	case f.Message != nil:
		t = "*" + f.Message.GoIdent.GoName
	case f.Enum != nil:
		t = f.Enum.GoIdent.GoName
	default:
		t = scalarGo(f.Desc.Kind())
	}
	switch {
	case f.Desc.IsList():
		return "[]" + t
	case presence && f.Message == nil && f.Desc.HasPresence() && f.Desc.Kind() != protoreflect.BytesKind:
		return "*" + t
	}
	return t
}

func scalarGo(k protoreflect.Kind) string {
	switch k {
	case protoreflect.BoolKind:
		return "bool"
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return "int32"
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return "uint32"
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return "int64"
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return "uint64"
	case protoreflect.FloatKind:
		return "float32"
	case protoreflect.DoubleKind:
		return "float64"
	case protoreflect.StringKind:
		return "string"
	case protoreflect.BytesKind:
		return "[]byte"
	}
	return k.String()
}
