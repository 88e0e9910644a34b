package dev.vtbench.sut.scenarios.db;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Arrays;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import org.springframework.stereotype.Component;

import dev.vtbench.sut.config.BenchProperties;
import dev.vtbench.sut.config.InvalidBenchPropertyException;
import dev.vtbench.sut.observability.Versions;

/**
 * The PostgreSQL connection pool of the DB scenarios: a {@link HikariDataSource} built from
 * {@code bench.db.*} when {@code bench.db.url} is set, else none. There is deliberately no Spring Boot
 * DataSource auto-configuration on the class path (no {@code spring-boot-jdbc}), so the SUT of the other
 * studies starts without a database; the DB scenarios then answer 503 {@code db_not_configured}.
 * <p>
 * With a URL, the pool is created at SUT start and must reach the database at once (Hikari's
 * {@code initializationFailTimeout} = 1 ms): an unreachable database stops the start with a message
 * naming {@code bench.db.url}. {@code minimumIdle} stays at Hikari's default (= maximumPoolSize), so the
 * pool holds {@code bench.db.pool-size} open connections and none is opened while measuring.
 */
@Component
public class DbPool implements AutoCloseable {

    /**
     * {@code /bench/info} {@code db}. Versions are read at runtime: HikariCP and the driver from their
     * jars, the server from {@link DatabaseMetaData} (null without a database).
     *
     * @param url                 {@code bench.db.url} with any {@code password=} query value masked; null = not configured
     * @param hikariYieldFix      whether HikariCP's {@code ConcurrentBag} has the virtual-thread check of
     *                            HikariCP PR 2402 (fixes issue 2398: {@code Thread.yield()} spinning that can
     *                            burn every carrier while virtual threads wait for a connection). Read from the
     *                            class itself: PR 2402 added the method {@code ConcurrentBag.resolveThreadIsVirtual};
     *                            7.0.2 (Spring Boot 4.0.x's version) lacks it, 7.1.0 has it (checked with javap)
     */
    public record Info(boolean configured, String url, int poolSize, long connectionTimeoutMs, String hikariVersion,
            boolean hikariYieldFix, String jdbcDriverVersion, String serverVersion) {
    }

    private final BenchProperties.Db props;
    private final HikariDataSource dataSource;
    private final Info info;

    /** @throws InvalidBenchPropertyException naming {@code bench.db.url} when the database cannot be reached */
    public DbPool(BenchProperties props) {
        this.props = props.db();
        String serverVersion = null;
        if (this.props.configured()) {
            this.dataSource = open(this.props);
            try (Connection c = dataSource.getConnection()) {
                DatabaseMetaData md = c.getMetaData();
                serverVersion = md.getDatabaseProductName() + " " + md.getDatabaseProductVersion();
            } catch (SQLException e) {
                dataSource.close();
                throw new InvalidBenchPropertyException("bench.db.url", this.props.url(), "cannot read the server version: " + e);
            }
        } else {
            this.dataSource = null;
        }
        this.info = new Info(this.props.configured(), maskPassword(this.props.url()), this.props.poolSize(),
                this.props.connectionTimeoutMs(), Versions.of("com.zaxxer", "HikariCP", HikariDataSource.class),
                hasYieldFix(), org.postgresql.util.DriverInfo.DRIVER_VERSION, serverVersion);
    }

    private static HikariDataSource open(BenchProperties.Db db) {
        HikariConfig c = new HikariConfig();
        c.setPoolName("vtbench-db");
        c.setJdbcUrl(db.url());
        if (db.user() != null) {
            c.setUsername(db.user());
        }
        if (db.password() != null) {
            c.setPassword(db.password());
        }
        c.setMaximumPoolSize(db.poolSize());
        c.setConnectionTimeout(db.connectionTimeoutMs());
        try {
            return new HikariDataSource(c);
        } catch (RuntimeException e) {
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            throw new InvalidBenchPropertyException("bench.db.url", maskPassword(db.url()),
                    "cannot connect (is PostgreSQL running there, are bench.db.user/password right?): " + root);
        }
    }

    /**
     * A pooled connection; close it to return it.
     *
     * @throws DbUnavailableException {@code db_not_configured} without {@code bench.db.url};
     *                                {@code db_pool_exhausted} when Hikari timed out waiting for a connection
     * @throws SQLException           any other failure to get one
     */
    public Connection connection() throws SQLException {
        requireConfigured();
        try {
            return dataSource.getConnection();
        } catch (SQLTransientConnectionException e) {
            throw new DbUnavailableException(DbUnavailableException.POOL_EXHAUSTED, e.getMessage());
        }
    }

    /** @throws DbUnavailableException {@code db_not_configured} without {@code bench.db.url} */
    public void requireConfigured() {
        if (dataSource == null) {
            throw new DbUnavailableException(DbUnavailableException.NOT_CONFIGURED,
                    "no database: start the SUT with bench.db.url=jdbc:postgresql://127.0.0.1:<port>/<db> for the DB scenarios");
        }
    }

    public Info info() {
        return info;
    }

    /** {@code password=<anything>} in a JDBC URL's query becomes {@code password=***}; null stays null. */
    static String maskPassword(String url) {
        return url == null ? null : url.replaceAll("(?i)([?&]password=)[^&]*", "$1***");
    }

    static boolean hasYieldFix() {
        try {
            Class<?> bag = Class.forName("com.zaxxer.hikari.util.ConcurrentBag");
            return Arrays.stream(bag.getDeclaredMethods()).anyMatch(m -> m.getName().equals("resolveThreadIsVirtual"));
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    @Override
    public void close() {
        if (dataSource != null) {
            dataSource.close();
        }
    }
}
