package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// ParamText returns the plain form of a parameter value whose type is a
// union of primitives (a oneOf or anyOf of strings, numbers and booleans),
// as a path, query or header parameter carries it: a string as its text,
// without quotes ("main.yml"), a number or boolean as written (42, 1.5,
// true). Generated request builders call it with the union, which
// marshals to the JSON of the variant it holds. A value that is no
// primitive (null, an unset union, an object or an array) is an error,
// which the generated client returns as an invalid request.
//
// ParamText is safe for concurrent use.
func ParamText(v json.Marshaler) (string, error) {
	data, err := v.MarshalJSON()
	if err != nil {
		return "", err
	}
	data = bytes.TrimSpace(data)
	switch {
	case len(data) == 0:
		return "", errors.New("the parameter value is empty")
	case data[0] == '"':
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return "", err
		}
		return s, nil
	case data[0] == '-' || '0' <= data[0] && data[0] <= '9':
		var n json.Number
		if err := json.Unmarshal(data, &n); err != nil {
			return "", err
		}
		return n.String(), nil
	case string(data) == "true" || string(data) == "false":
		return string(data), nil
	case string(data) == "null":
		return "", errors.New("the parameter value is null or unset; set one of its variants")
	}
	return "", fmt.Errorf("the parameter value is a JSON %s, not a string, number or boolean", kindOf(data[0]))
}

func kindOf(b byte) string {
	switch b {
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return "value"
}
