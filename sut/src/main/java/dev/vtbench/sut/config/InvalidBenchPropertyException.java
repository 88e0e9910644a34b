package dev.vtbench.sut.config;

/** A {@code bench.*} property has a value the SUT refuses; the message names the property. */
public class InvalidBenchPropertyException extends IllegalArgumentException {

    private final String property;

    public InvalidBenchPropertyException(String property, Object value, String rule) {
        super(property + "=" + value + " is invalid: " + rule);
        this.property = property;
    }

    public String property() {
        return property;
    }

    /** Walks the cause chain (Spring wraps binding failures several times). */
    public static InvalidBenchPropertyException findIn(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof InvalidBenchPropertyException bad) {
                return bad;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return null;
    }
}
