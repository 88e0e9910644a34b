package dev.vtbench.sut.scenarios;

/**
 * The LLM call failed; {@code code} is the stable error code sent to the client, with HTTP 504 for
 * {@value #TIMEOUT} (the client's timeout ended the call: {@code spring.ai.openai.timeout}) and 502
 * for every other code, so a load generator that keeps only the status still tells timeouts apart.
 */
public class UpstreamException extends RuntimeException {

    /** the code of a call the client's timeout ended */
    public static final String TIMEOUT = "upstream_timeout";

    private final String code;

    public UpstreamException(String code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    public String code() {
        return code;
    }

    /** 504 for {@value #TIMEOUT}, else 502. */
    public int httpStatus() {
        return TIMEOUT.equals(code) ? 504 : 502;
    }
}
