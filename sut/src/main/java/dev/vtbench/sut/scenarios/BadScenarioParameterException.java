package dev.vtbench.sut.scenarios;

/** A scenario's parameter is missing or has a bad value: HTTP 400 {@code bad_scenario_parameter}, naming it. */
public class BadScenarioParameterException extends IllegalArgumentException {

    private final String parameter;

    /** @param message says what is wrong; it is sent as is, so it should name the parameter */
    public BadScenarioParameterException(String parameter, String message) {
        super(message, null);
        this.parameter = parameter;
    }

    public String parameter() {
        return parameter;
    }
}
