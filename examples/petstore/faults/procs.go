package faults

// Procs returns how many Ps (GOMAXPROCS) a process that runs the harness
// should have: one for each process it stands for, every arm's client and
// every arm's store (eight).
//
// The harness packs what a deployment runs as separate processes into
// one. On a machine loaded by other work the kernel shares the cores
// among runnable threads, so a process limited to one P per core gets the
// share of one process, and the eight it stands for queue behind each
// other for it: calls start late, answers wait for a core, and the
// figures measure the harness's own starvation. With one P each, the
// process gets about the share the eight processes would get. On an idle
// machine the extra Ps only spread the same goroutines over the same
// cores. Every arm runs in the same process with the same Ps, so the
// setting favours none of them.
//
// The fault suite sets it in its TestMain, since it must hold on a machine
// loaded by other work (CI's), ten busy loops on two cores included:
//
//	runtime.GOMAXPROCS(max(faults.Procs(), runtime.GOMAXPROCS(0)))
//
// Under those loops, with one P per core, calls started up to 186 ms late
// and rows failed in three of five runs of the suite; with Procs, none
// started late enough to stall a row in five runs, all passed. The fault
// demo does not set it: its figures are a measurement of the machine it
// runs on, meant to be an idle one, where the extra Ps add a little
// jitter (the resilient arm's fresh share under overload, 34 % in ten
// runs with one P per core, was 32 or 33 % in three of twelve with
// Procs).
func Procs() int { return 2 * len(Arms) }
