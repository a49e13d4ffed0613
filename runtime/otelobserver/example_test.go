package otelobserver_test

import (
	"context"
	"fmt"
	"log"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/resilientgo/resilient/runtime"
	"github.com/resilientgo/resilient/runtime/otelobserver"
)

func Example() {
	reader := sdkmetric.NewManualReader() // in production, a periodic OTLP reader
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	defer mp.Shutdown(context.Background())

	obs, err := otelobserver.New(mp)
	if err != nil {
		log.Fatal(err)
	}
	pets, err := runtime.NewDependency("petstore", runtime.DependencyPolicy{}, runtime.WithObserver(obs))
	if err != nil {
		log.Fatal(err)
	}
	getPet, err := pets.Operation(runtime.OperationPolicy{Name: "GetPet", Idempotency: runtime.ReadOnly})
	if err != nil {
		log.Fatal(err)
	}
	name, err := runtime.Do(context.Background(), getPet, "7", func(context.Context) (string, error) {
		return "Rex", nil
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(name)

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		log.Fatal(err)
	}
	for _, m := range rm.ScopeMetrics[0].Metrics {
		if m.Name == otelobserver.AttemptsName {
			dp := m.Data.(metricdata.Sum[int64]).DataPoints[0]
			outcome, _ := dp.Attributes.Value(otelobserver.OutcomeKey)
			fmt.Println(m.Name, outcome.AsString(), dp.Value)
		}
	}
	// Output:
	// Rex
	// resilient.attempts success 1
}
