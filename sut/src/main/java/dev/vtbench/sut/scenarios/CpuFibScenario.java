package dev.vtbench.sut.scenarios;

import org.springframework.stereotype.Component;

/**
 * {@code cpu-fib}: the study's CPU-bound scenario, a recursive {@link FibCalibration#fib fib(n)} on the
 * executor's thread, no I/O. Query parameter {@code n} (0..{@value FibCalibration#MAX_N}) is optional:
 * without it, the n calibrated at start to cost about {@code bench.fib.target-cpu-ms} of CPU
 * ({@code /bench/info} {@code fib}). Returns {@code {"n": n, "fib": fib(n)}}.
 */
@Component
public class CpuFibScenario implements Scenario {

    static final String ID = "cpu-fib";

    public record Result(int n, long fib) {
    }

    private final FibCalibration calibration;

    public CpuFibScenario(FibCalibration calibration) {
        this.calibration = calibration;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Result call(ScenarioRequest request) {
        int n = request.param("n").isPresent() ? (int) request.wholeNumber("n", 0, FibCalibration.MAX_N) : calibration.info().n();
        return new Result(n, FibCalibration.fib(n));
    }
}
