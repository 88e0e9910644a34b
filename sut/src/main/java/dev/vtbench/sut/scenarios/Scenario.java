package dev.vtbench.sut.scenarios;

import dev.vtbench.sut.executors.MeasuringExecutor;

/**
 * One workload the SUT can run on its executor, served at {@code /api/scenario/{id}}. Every scenario
 * is a Spring bean; {@link ScenarioRegistry} collects them by id. Adding a scenario: one class
 * annotated {@code @Component} implementing this interface, plus its tests.
 */
public interface Scenario {

    /** The id in the URL: lower-case letters, digits and {@code -}, starting with a letter; unique. */
    String id();

    /**
     * Runs the scenario once, blocking, on the executor's thread (a platform pool thread or a
     * virtual thread, whatever {@code bench.executor.kind} built); {@link MeasuringExecutor} times it.
     *
     * @return the value sent as {@code result} in the response (anything Jackson serialises)
     * @throws BadScenarioParameterException for a missing or bad parameter (HTTP 400 naming it)
     * @throws UpstreamException when a remote call failed (HTTP 502); anything else is HTTP 500
     */
    Object call(ScenarioRequest request) throws Exception;
}
