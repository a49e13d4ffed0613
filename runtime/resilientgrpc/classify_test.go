package resilientgrpc_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/outcome"
	"github.com/resilientgo/resilient/runtime/resilientgrpc"
)

func TestParsePushback(t *testing.T) {
	tests := []struct {
		name   string
		values []string
		want   time.Duration
		wantPB resilientgrpc.Pushback
	}{
		{name: "absent", wantPB: resilientgrpc.PushbackAbsent},
		{name: "300", values: []string{"300"}, want: 300 * time.Millisecond, wantPB: resilientgrpc.PushbackDelay},
		{name: "zero", values: []string{"0"}, wantPB: resilientgrpc.PushbackDelay},
		{name: "max int32", values: []string{"2147483647"}, want: 2147483647 * time.Millisecond, wantPB: resilientgrpc.PushbackDelay},
		{name: "above int32", values: []string{"2147483648"}, wantPB: resilientgrpc.PushbackStop},
		{name: "negative", values: []string{"-1"}, wantPB: resilientgrpc.PushbackStop},
		{name: "garbage", values: []string{"1s"}, wantPB: resilientgrpc.PushbackStop},
		{name: "empty", values: []string{""}, wantPB: resilientgrpc.PushbackStop},
		{name: "two values", values: []string{"1", "1"}, wantPB: resilientgrpc.PushbackStop},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			md := metadata.MD{}
			if tt.values != nil {
				md[resilientgrpc.PushbackKey] = tt.values
			}
			got, pb := resilientgrpc.ParsePushback(md)
			if got != tt.want || pb != tt.wantPB {
				t.Errorf("ParsePushback(%q) = %v, %v, want %v, %v", tt.values, got, pb, tt.want, tt.wantPB)
			}
		})
	}
}

func FuzzParsePushback(f *testing.F) {
	for _, s := range []string{"300", "-1", "", "1e3", "+5", "99999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		d, pb := resilientgrpc.ParsePushback(metadata.Pairs(resilientgrpc.PushbackKey, v))
		if d < 0 || (pb != resilientgrpc.PushbackDelay && d != 0) || pb == resilientgrpc.PushbackAbsent {
			t.Errorf("ParsePushback(%q) = %v, %v", v, d, pb)
		}
	})
}

func TestClassify(t *testing.T) {
	const (
		absent = resilientgrpc.PushbackAbsent
		delay  = resilientgrpc.PushbackDelay
		stop   = resilientgrpc.PushbackStop
	)
	tests := []struct {
		code      codes.Code
		pushback  resilientgrpc.Pushback
		committed bool
		want      outcome.Class
	}{
		{codes.Unavailable, absent, false, outcome.Transient},
		{codes.Unavailable, delay, false, outcome.Transient},
		{codes.Unavailable, stop, false, outcome.Failed},
		{codes.Unavailable, absent, true, outcome.Failed},
		{codes.DeadlineExceeded, absent, false, outcome.Transient},
		{codes.ResourceExhausted, absent, false, outcome.Rejected},
		{codes.ResourceExhausted, delay, false, outcome.Throttled},
		{codes.ResourceExhausted, stop, false, outcome.Rejected},
		{codes.ResourceExhausted, delay, true, outcome.Rejected},
		{codes.Internal, delay, false, outcome.Failed},
		{codes.Unknown, absent, false, outcome.Failed},
		{codes.DataLoss, absent, false, outcome.Failed},
		{codes.Code(99), absent, false, outcome.Failed},
		{codes.InvalidArgument, absent, false, outcome.Rejected},
		{codes.NotFound, absent, false, outcome.Rejected},
		{codes.AlreadyExists, absent, false, outcome.Rejected},
		{codes.PermissionDenied, absent, false, outcome.Rejected},
		{codes.Unauthenticated, absent, false, outcome.Rejected},
		{codes.FailedPrecondition, absent, false, outcome.Rejected},
		{codes.OutOfRange, absent, false, outcome.Rejected},
		{codes.Unimplemented, absent, false, outcome.Rejected},
		{codes.Aborted, absent, false, outcome.Rejected},
		{codes.Canceled, absent, false, outcome.Permanent},
	}
	for _, tt := range tests {
		if got := resilientgrpc.Classify(tt.code, tt.pushback, tt.committed); got != tt.want {
			t.Errorf("Classify(%v, %v, %v) = %v, want %v", tt.code, tt.pushback, tt.committed, got, tt.want)
		}
	}
}

func TestStatus(t *testing.T) {
	remote := func(c codes.Code) error {
		// A real server answer, as the pipeline wraps it.
		var err error
		synctest.Test(t, func(t *testing.T) {
			s := &echoServer{unary: failing(1, status.Error(c, "from server"))}
			cc := serveBufconn(t, s)
			op := newOp(t, runtime.DependencyPolicy{}, runtime.OperationPolicy{Name: "Unary"})
			_, err = call(t.Context(), cc, op)
		})
		var e *resilientgrpc.Error
		if !errors.As(err, &e) {
			t.Fatalf("call returned %T, want *resilientgrpc.Error", err)
		}
		return e.Err
	}
	internal := remote(codes.Internal)
	tests := []struct {
		name    string
		err     error
		want    codes.Code
		wantMsg string // empty: not checked
	}{
		{name: "nil", err: nil, want: codes.OK},
		{name: "server answer", err: internal, want: codes.Internal, wantMsg: "from server"},
		{name: "circuit open", err: &runtime.CircuitOpenError{Last: internal}, want: codes.Unavailable},
		{name: "bulkhead full", err: &runtime.BulkheadFullError{}, want: codes.Unavailable},
		{name: "budget exhausted after a server answer", err: &runtime.BudgetExhaustedError{Last: internal}, want: codes.Internal, wantMsg: "from server"},
		{name: "budget exhausted", err: &runtime.BudgetExhaustedError{}, want: codes.Unavailable},
		{name: "deadline", err: &runtime.DeadlineExceededError{Last: internal}, want: codes.DeadlineExceeded},
		{name: "canceled", err: &runtime.CanceledError{Cause: context.Canceled, Last: internal}, want: codes.Canceled},
		{name: "outcome unknown", err: &runtime.OutcomeUnknownError{Err: &runtime.DeadlineExceededError{}}, want: codes.DeadlineExceeded},
		{name: "degraded", err: &runtime.DegradedError{Cause: &runtime.CircuitOpenError{}}, want: codes.Unavailable},
		{name: "wrapped context deadline", err: errors.Join(errors.New("x"), context.DeadlineExceeded), want: codes.DeadlineExceeded},
		{name: "plain error", err: errors.New("x"), want: codes.Unknown},
		{name: "grpc status error", err: status.Error(codes.NotFound, "nf"), want: codes.NotFound, wantMsg: "nf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := resilientgrpc.Status(tt.err)
			if got := st.Code(); got != tt.want {
				t.Errorf("Status(%v).Code() = %v, want %v", tt.err, got, tt.want)
			}
			if tt.wantMsg != "" && st.Message() != tt.wantMsg {
				t.Errorf("Status(%v).Message() = %q, want %q", tt.err, st.Message(), tt.wantMsg)
			}
		})
	}
}

func TestCheckNoBuiltinRetry(t *testing.T) {
	tests := []struct {
		name    string
		opts    []grpc.DialOption
		wantErr bool
	}{
		{name: "no service config"},
		{name: "retry policy", opts: []grpc.DialOption{grpc.WithDefaultServiceConfig(retryServiceConfig)}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := &echoServer{unary: failing(0, nil)}
				cc := serveBufconn(t, s, tt.opts...)
				// The service config arrives when the channel first connects.
				if _, err := cc.NewStream(t.Context(), listDesc(), "/test.Echo/Nothing"); err != nil {
					t.Fatal(err)
				}
				err := resilientgrpc.CheckNoBuiltinRetry(cc, unaryMethod)
				if (err != nil) != tt.wantErr {
					t.Errorf("CheckNoBuiltinRetry() = %v, want error: %v", err, tt.wantErr)
				}
			})
		})
	}
	if err := resilientgrpc.CheckNoBuiltinRetry(nonConn{}, unaryMethod); err != nil {
		t.Errorf("CheckNoBuiltinRetry(not a *grpc.ClientConn) = %v, want nil", err)
	}
}

type nonConn struct{ grpc.ClientConnInterface }
