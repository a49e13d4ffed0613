package petstore

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/resilientgo/resilient/examples/petstore/petstorepb"
	"github.com/resilientgo/resilient/runtime/resilientgrpc"
	"github.com/resilientgo/resilient/runtime/server"
)

// IdempotencyKeyMetadata is the metadata key the gRPC server deduplicates
// creates on, as the resilient client sends it.
const IdempotencyKeyMetadata = "idempotency-key"

// NewGRPCServer returns a gRPC server serving store (petstore.proto) behind
// the interceptors of [GRPCServerOptions], with opts added. The deadline is
// gRPC's own (grpc-timeout).
func NewGRPCServer(store *Store, shed server.ShedConfig, opts ...grpc.ServerOption) *grpc.Server {
	s := grpc.NewServer(append(GRPCServerOptions(store, shed), opts...)...)
	RegisterGRPC(s, store)
	return s
}

// GRPCServerOptions returns the server options that apply a
// [server.Shedder] configured by shed to every unary and streaming call,
// as the HTTP server does: a call that is not admitted ends with
// UNAVAILABLE (RESOURCE_EXHAUSTED when shed.Status is 429) and a
// grpc-retry-pushback-ms trailer of shed.RetryAfter, and is counted in
// [CountersSnapshot.Shed]. shed.Exempt is not used. The faults are applied
// by the service itself ([RegisterGRPC]).
func GRPCServerOptions(store *Store, shed server.ShedConfig) []grpc.ServerOption {
	g := &grpcShed{store: store, shedder: server.NewShedder(shed), code: codes.Unavailable, retryAfter: shed.RetryAfter}
	if shed.Status == http.StatusTooManyRequests {
		g.code = codes.ResourceExhausted
	}
	if g.retryAfter <= 0 {
		g.retryAfter = server.DefaultShedRetryAfter
	}
	return []grpc.ServerOption{grpc.ChainUnaryInterceptor(g.unary), grpc.ChainStreamInterceptor(g.stream)}
}

// RegisterGRPC registers the pet store service of store on s.
func RegisterGRPC(s *grpc.Server, store *Store) {
	petstorepb.RegisterPetStoreServer(s, &grpcServer{store: store})
}

type grpcShed struct {
	store      *Store
	shedder    *server.Shedder
	code       codes.Code
	retryAfter time.Duration
}

func (g *grpcShed) unary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	at, ok := g.shedder.Admit(ctx)
	if !ok {
		return nil, g.reject(ctx)
	}
	defer g.shedder.Release(at)
	return handler(ctx, req)
}

func (g *grpcShed) stream(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	at, ok := g.shedder.Admit(ss.Context())
	if !ok {
		return g.reject(ss.Context())
	}
	defer g.shedder.Release(at)
	return handler(srv, ss)
}

func (g *grpcShed) reject(ctx context.Context) error {
	g.store.counters.countShed()
	pushback(ctx, g.retryAfter)
	return status.Error(g.code, "petstore: overloaded, retry later")
}

// pushback sets the grpc-retry-pushback-ms trailer to d.
func pushback(ctx context.Context, d time.Duration) {
	if d > 0 {
		_ = grpc.SetTrailer(ctx, metadata.Pairs(resilientgrpc.PushbackKey, strconv.FormatInt(d.Milliseconds(), 10)))
	}
}

type grpcServer struct {
	petstorepb.UnimplementedPetStoreServer
	store *Store
}

// serve runs one call of op: begin (count, faults), then fn; errors become
// statuses.
func serve[T any](ctx context.Context, s *Store, op string, fn func() (*T, error)) (*T, error) {
	done, err := s.begin(ctx, op)
	defer done()
	if err == nil {
		var v *T
		if v, err = fn(); err == nil {
			if s.faults.loseAnswer() {
				return nil, status.Error(codes.Unavailable, "petstore: connection reset after the request was applied")
			}
			return v, nil
		}
	}
	return nil, grpcError(ctx, err)
}

// grpcError maps a store error to a status, setting the pushback trailer
// of a fault with a Retry-After.
func grpcError(ctx context.Context, err error) error {
	var fe *FaultError
	switch {
	case errors.As(err, &fe):
		pushback(ctx, fe.RetryAfter)
		return status.Error(codeOf(fe.Status), fe.Error())
	case errors.Is(err, ErrNotFound):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	default:
		return status.Error(codes.InvalidArgument, err.Error())
	}
}

// codeOf maps an HTTP status of a fault to the gRPC code with the same
// meaning.
func codeOf(st int) codes.Code {
	switch st {
	case http.StatusServiceUnavailable, http.StatusBadGateway:
		return codes.Unavailable
	case http.StatusTooManyRequests:
		return codes.ResourceExhausted
	case http.StatusGatewayTimeout:
		return codes.DeadlineExceeded
	case http.StatusNotFound:
		return codes.NotFound
	case http.StatusBadRequest:
		return codes.InvalidArgument
	case http.StatusConflict:
		return codes.Aborted
	case http.StatusInternalServerError:
		return codes.Internal
	default:
		return codes.Unknown
	}
}

func toProto(p Pet) *petstorepb.Pet {
	return &petstorepb.Pet{Id: p.ID, Name: p.Name, Adoptions: p.Adoptions}
}

func (g *grpcServer) ListPets(ctx context.Context, _ *petstorepb.ListPetsRequest) (*petstorepb.ListPetsResponse, error) {
	return serve(ctx, g.store, OpListPets, func() (*petstorepb.ListPetsResponse, error) {
		out := &petstorepb.ListPetsResponse{}
		for _, p := range g.store.List() {
			out.Pets = append(out.Pets, toProto(p))
		}
		return out, nil
	})
}

func (g *grpcServer) GetPet(ctx context.Context, in *petstorepb.GetPetRequest) (*petstorepb.Pet, error) {
	return serve(ctx, g.store, OpGetPet, func() (*petstorepb.Pet, error) {
		p, err := g.store.Get(in.GetId())
		return toProto(p), err
	})
}

func (g *grpcServer) CreatePet(ctx context.Context, in *petstorepb.CreatePetRequest) (*petstorepb.Pet, error) {
	return serve(ctx, g.store, OpCreatePet, func() (*petstorepb.Pet, error) {
		if in.GetName() == "" {
			return nil, errors.New("petstore: a pet needs a name")
		}
		var key string
		if vs := metadata.ValueFromIncomingContext(ctx, IdempotencyKeyMetadata); len(vs) > 0 {
			key = vs[0]
		}
		return toProto(g.store.Create(key, in.GetName())), nil
	})
}

func (g *grpcServer) UpdatePet(ctx context.Context, in *petstorepb.UpdatePetRequest) (*petstorepb.Pet, error) {
	return serve(ctx, g.store, OpUpdatePet, func() (*petstorepb.Pet, error) {
		if in.GetName() == "" {
			return nil, errors.New("petstore: a pet needs a name")
		}
		p, err := g.store.Update(in.GetId(), in.GetName())
		return toProto(p), err
	})
}

func (g *grpcServer) DeletePet(ctx context.Context, in *petstorepb.DeletePetRequest) (*petstorepb.DeletePetResponse, error) {
	return serve(ctx, g.store, OpDeletePet, func() (*petstorepb.DeletePetResponse, error) {
		g.store.Delete(in.GetId())
		return &petstorepb.DeletePetResponse{}, nil
	})
}

func (g *grpcServer) AdoptPet(ctx context.Context, in *petstorepb.AdoptPetRequest) (*petstorepb.Pet, error) {
	return serve(ctx, g.store, OpAdoptPet, func() (*petstorepb.Pet, error) {
		p, err := g.store.Adopt(in.GetId(), incomingCallID(ctx))
		return toProto(p), err
	})
}

// WatchPets sends every pet, then each change, until the caller ends the
// stream. The faults apply before the first message.
func (g *grpcServer) WatchPets(_ *petstorepb.WatchPetsRequest, stream grpc.ServerStreamingServer[petstorepb.Pet]) error {
	ctx := stream.Context()
	done, err := g.store.begin(ctx, OpWatchPets)
	defer done()
	if err != nil {
		return grpcError(ctx, err)
	}
	pets, changes, stop := g.store.watch()
	defer stop()
	for _, p := range pets {
		if err := stream.Send(toProto(p)); err != nil {
			return err
		}
	}
	for {
		select {
		case <-ctx.Done():
			return grpcError(ctx, ctx.Err())
		case p := <-changes:
			if err := stream.Send(toProto(p)); err != nil {
				return err
			}
		}
	}
}
