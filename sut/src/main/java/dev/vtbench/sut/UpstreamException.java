package dev.vtbench.sut;

/** The LLM call failed; {@code code} is the stable error code sent to the client (502). */
public class UpstreamException extends RuntimeException {

    private final String code;

    public UpstreamException(String code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
