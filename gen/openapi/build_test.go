package openapi

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/resilientgo/resilient/gen/ir"
	"github.com/resilientgo/resilient/policyspec"
)

// buildTestdata loads and builds a spec from testdata, failing on errors.
func buildTestdata(t *testing.T, name string) *ir.Service {
	t.Helper()
	doc, _, err := Load(os.DirFS("testdata"), name, LoadOptions{Dir: "testdata"})
	if err != nil {
		t.Fatalf("Load(%s): %v", name, err)
	}
	svc, _, err := Build(doc, BuildOptions{})
	if err != nil {
		t.Fatalf("Build(%s): %v", name, err)
	}
	return svc
}

// typeString renders a type use compactly: "[]Pet", "map[string]string",
// "?string" for nullable.
func typeString(t *ir.TypeRef) string {
	if t == nil {
		return "<nil>"
	}
	s := ""
	switch t.Kind {
	case ir.KindArray:
		s = "[]" + typeString(t.Elem)
	case ir.KindMap:
		s = "map[string]" + typeString(t.Elem)
	case ir.KindNamed:
		s = t.Name
	default:
		s = strings.ToLower(kindWord(t.Kind))
	}
	if t.Nullable {
		s = "?" + s
	}
	return s
}

func TestBuildOperations(t *testing.T) {
	svc := buildTestdata(t, "features.yaml")
	var got []string
	for _, op := range svc.Operations {
		got = append(got, fmt.Sprintf("%s %s %s [%s] %s", op.Name, op.Method, op.Path, op.Idempotency, op.Location))
		for _, p := range op.Params {
			req := ""
			if p.Required {
				req = " required"
			}
			got = append(got, fmt.Sprintf("  param %s %s %q %s %s explode=%v%s", p.Ident, p.In, p.Name, typeString(p.Type), p.Style, p.Explode, req))
		}
		if op.Body != nil {
			for _, c := range op.Body.Contents {
				got = append(got, fmt.Sprintf("  body %s %s %s required=%v", c.MediaType, c.Kind, typeString(c.Type), op.Body.Required))
			}
		}
		for _, r := range op.Responses {
			line := fmt.Sprintf("  response %s success=%v", r.Status, r.IsSuccess())
			for _, c := range r.Contents {
				line += fmt.Sprintf(" %s %s %s", c.MediaType, c.Kind, typeString(c.Type))
			}
			got = append(got, line)
		}
		for _, e := range op.Resilience {
			got = append(got, fmt.Sprintf("  x-resilience %s at %s:%s", e.Level, e.Location, policyText(e.Spec)))
		}
	}
	want := []string{
		"ListPets GET /pets [read-only] testdata/features.yaml:15:5",
		`  param Tags query "tags" []string form explode=true`,
		`  param IDs query "ids" []int64 form explode=false`,
		`  param Names query "names" []string pipeDelimited explode=false`,
		`  param Words query "words" []string spaceDelimited explode=false`,
		`  param Filter query "filter" ListPetsFilter deepObject explode=true`,
		`  param Status query "status" ListPetsStatus form explode=true required`,
		`  param XRequestID header "X-Request-ID" uuid simple explode=false`,
		`  param Session cookie "session" string form explode=true`,
		"  response 200 success=true application/json json []Pet",
		"  response default success=false application/json json Error",
		"  x-resilience path item at testdata/features.yaml:12:5: retry.maxRetries=1 at 14:9",
		"  x-resilience operation at testdata/features.yaml:51:7: hedge.delay=50ms at 52:17",
		"CreatePet POST /pets [not idempotent] testdata/features.yaml:66:5",
		"  body application/json json CreatePetRequest required=true",
		"  body application/x-www-form-urlencoded form CreatePetRequest2 required=true",
		"  response 201 success=true application/json json CreatePetResponse",
		"  response 409 success=false application/json json Error",
		"  x-resilience path item at testdata/features.yaml:12:5: retry.maxRetries=1 at 14:9",
		"DeletePetsByPetID DELETE /pets/{petId} [idempotent] testdata/features.yaml:118:5",
		`  param PetID path "petId" int64 simple explode=false required`,
		"  response 204 success=true",
		"GetPetByID GET /pets/{petId} [read-only] testdata/features.yaml:102:5",
		`  param PetID path "petId" int64 simple explode=false required`,
		"  response 200 success=true application/json json Pet",
		"ReplacePet PUT /pets/{petId} [idempotent] testdata/features.yaml:110:5",
		`  param PetID path "petId" int64 simple explode=false required`,
		"  body application/octet-stream binary bytes required=false",
		"  response 204 success=true",
		"Func PATCH /pets/{petId}/photo [not idempotent] testdata/features.yaml:122:5",
		`  param PetID path "petId" int simple explode=false required`,
		"  body text/plain text string required=false",
		"  response 200 success=true image/png binary bytes",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("operations mismatch (-want +got):\n%s", diff)
	}
	if len(svc.Resilience) != 1 || svc.Resilience[0].Location.String() != "testdata/features.yaml:8:1" {
		t.Errorf("document x-resilience = %+v, want one value at testdata/features.yaml:8:1", svc.Resilience)
	}
}

func TestBuildTypes(t *testing.T) {
	for _, name := range []string{"features.yaml", "features31.yaml"} {
		t.Run(name, func(t *testing.T) {
			svc := buildTestdata(t, name)
			var got []string
			for _, ty := range svc.Types {
				line := ty.Name + " " + typeKind(ty)
				for _, f := range ty.Fields {
					req := ""
					if f.Required {
						req = "!"
					}
					line += fmt.Sprintf(" %s:%s%s", f.JSONName, typeString(f.Type), req)
				}
				if ty.Enum != nil {
					for _, v := range ty.Enum.Values {
						line += fmt.Sprintf(" %s=%v", v.Name, v.Value)
					}
				}
				if ty.Union != nil {
					for _, v := range ty.Union.Variants {
						line += fmt.Sprintf(" %s:%s%v", v.Name, typeString(v.Type), v.Tags)
					}
				}
				if ty.Alias != nil {
					line += " " + typeString(ty.Alias)
				}
				got = append(got, line)
			}
			if diff := cmp.Diff(wantTypes[name], got); diff != "" {
				t.Errorf("types mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func typeKind(t *ir.Type) string {
	switch t.Kind {
	case ir.TypeStruct:
		return "struct"
	case ir.TypeEnum:
		return "enum"
	case ir.TypeUnion:
		return "union"
	}
	return "alias"
}

var wantTypes = map[string][]string{
	"features.yaml": {
		"Animal struct petType:string!",
		"Cat struct petType:string! lives:int32",
		"CreatePetRequest struct name:string!",
		"CreatePetRequest2 struct name:string",
		"CreatePetResponse struct id:uuid",
		"Dog struct petType:string! barks:bool",
		"Error struct code:int32 message:string",
		"Kind union Cat:Cat[cat] Dog:Dog[Dog]",
		"ListPetsFilter struct kind:string",
		"ListPetsStatus enum ListPetsStatusAvailable=available ListPetsStatusSold=sold",
		"Node struct value:string! next:Node!",
		"Pet struct id:int64! name:string! kind:Kind! born:date updated_at:datetime photo:bytes weight:float32 nickname:?string tags:[]string labels:map[string]string owner:PetOwner parent:Pet status:PetStatus level:PetLevel extra:any",
		"PetLevel enum PetLevel1=1 PetLevel2=2 PetLevelMinus1=-1",
		"PetOwner struct name:string! address:PetOwnerAddress",
		"PetOwnerAddress struct city:string",
		"PetStatus enum PetStatusInStock=in-stock PetStatusSoldOut=sold out PetStatusEmpty= PetStatus3d=3d",
	},
	"features31.yaml": {
		"Name struct first:string! middle:?string! last:?string alias:?Name code:NameCode version:NameVersion",
		"NameCode union String:string[] Int:int[]",
		"NameVersion enum NameVersionV1=v1",
	},
}

// policyText shows the fields the features spec sets in its x-resilience
// values, each with the line and column of its key.
func policyText(s policyspec.Spec) string {
	var out string
	if f := s.Timeout; f.Set {
		out += fmt.Sprintf(" timeout=%v at %d:%d", f.Value, f.Loc.Line, f.Loc.Col)
	}
	if f := s.Retry.MaxRetries; f.Set {
		out += fmt.Sprintf(" retry.maxRetries=%v at %d:%d", f.Value, f.Loc.Line, f.Loc.Col)
	}
	if f := s.Hedge.Delay; f.Set {
		out += fmt.Sprintf(" hedge.delay=%v at %d:%d", f.Value, f.Loc.Line, f.Loc.Col)
	}
	return out
}
