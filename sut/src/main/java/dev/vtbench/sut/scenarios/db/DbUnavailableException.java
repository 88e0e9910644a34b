package dev.vtbench.sut.scenarios.db;

/**
 * The database could not serve the call: HTTP 503 with a stable code, its own error class for the
 * harness, never a crash.
 * <ul>
 * <li>{@link #NOT_CONFIGURED} {@code db_not_configured}: {@code bench.db.url} is unset (the SUT runs without a database);</li>
 * <li>{@link #POOL_EXHAUSTED} {@code db_pool_exhausted}: HikariCP gave no connection within
 * {@code bench.db.connection-timeout-ms} ({@code SQLTransientConnectionException} "Connection is not
 * available, request timed out after …ms"); the message is Hikari's.</li>
 * </ul>
 */
public class DbUnavailableException extends RuntimeException {

    public static final String NOT_CONFIGURED = "db_not_configured";
    public static final String POOL_EXHAUSTED = "db_pool_exhausted";

    private final String code;

    public DbUnavailableException(String code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
