// Package otelobserver records what the resilient call pipeline does as
// OpenTelemetry metrics. [New] returns an [Observer], a [runtime.Observer]
// that dependencies are given with [runtime.WithObserver]; the runtime
// package itself imports nothing of OpenTelemetry.
//
// # Instruments
//
// All instruments come from one meter named [ScopeName]. Every measurement
// carries the dependency ([DependencyKey]) and, except breaker metrics, the
// operation ([OperationKey]):
//
//	resilient.attempts             counter    {attempt}     outcome, hedge
//	resilient.attempt.duration     histogram  s             outcome, hedge
//	resilient.retries              counter    {retry}       retry_after
//	resilient.hedges               counter    {hedge}
//	resilient.rejections           counter    {rejection}   reason
//	resilient.degraded             counter    {answer}      source
//	resilient.breaker.transitions  counter    {transition}  from, to (scope)
//	resilient.breaker.state        gauge      1             state
//	resilient.fleet.changes        counter    {change}      scope
//	resilient.fleet.scope          gauge      1             scope
//
// The outcome of an attempt is "success", "canceled" or the class of its
// error ([outcome.Class]: "transient", "throttled", "failed", "rejected",
// "permanent"). A rejection's reason is "bulkhead_full", "circuit_open" or
// "budget_exhausted"; a degraded answer's source is "cached" or "static".
// The breaker state gauge follows the state-set convention: one point per
// state and dependency, 1 for the current state and 0 for the others, so
// that a query for state="open" == 1 lists the open breakers.
//
// For a dependency that shares its breaker and budget with its fleet
// ([runtime.WithFleet]), scope ([ScopeKey]) says where the state lives:
// the transitions of the fleet's breaker carry scope "fleet" (local
// transitions carry no scope, as before fleets); resilient.fleet.changes
// counts the state going "local" (the store unreachable, slow or
// unreadable) and back to "fleet"; resilient.fleet.scope has one point
// per scope, 1 for the current one. The Observer is a
// [runtime.FleetObserver].
//
// # Traces
//
// Attempts, retries and degraded answers are recorded with the context of
// the event ([runtime.AttemptEvent.Context]), which carries the attempt's
// or the call's span when the dependency also has a tracer (the oteltrace
// package): a meter provider that keeps exemplars (the SDK's default
// trace-based filter) then links those measurements to the span that
// made them. Spans and measurements share the dependency and operation
// attributes ([DependencyKey], [OperationKey]).
//
// # Cost
//
// Attribute sets are built once per dependency and operation, on the first
// event that names them, and kept; recording an event is a lookup in a
// [sync.Map] plus the instrument's own work. The observer is safe for
// concurrent use and holds no lock while it records.
//
// # Example
//
//	reader := sdkmetric.NewManualReader() // or a periodic OTLP reader
//	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
//	obs, err := otelobserver.New(mp)
//	if err != nil {
//		return err
//	}
//	pets, err := runtime.NewDependency("petstore", runtime.DependencyPolicy{}, runtime.WithObserver(obs))
//	if err != nil {
//		return err
//	}
//	getPet, err := pets.Operation(runtime.OperationPolicy{Name: "GetPet", Idempotency: runtime.ReadOnly})
//	...
//	pet, err := runtime.Do(ctx, getPet, id, fetchPet)
package otelobserver
