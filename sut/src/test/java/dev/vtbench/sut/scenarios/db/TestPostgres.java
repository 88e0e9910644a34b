package dev.vtbench.sut.scenarios.db;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throw-away PostgreSQL server for the SUT's tests, started from the machine's server binaries
 * ({@code initdb}, {@code pg_ctl}: the newest {@code /usr/lib/postgresql/<v>/bin}, else PATH): a fresh data
 * directory in a temp dir, listening on 127.0.0.1 on a free port (Unix socket in the temp dir),
 * {@code max_connections} 300, fsync off (test data). PostgreSQL refuses to run as root, so as root every
 * command runs as the {@code postgres} user ({@code runuser -u postgres --}) and the temp dir is given to it.
 * Seeded like the harness does for study 002 ({@link Orders}): database {@value #DATABASE}, table
 * {@code orders} with ids 1..10000. {@link #close()} stops the server ({@code pg_ctl stop -m immediate}) and
 * deletes the directory; a JVM shutdown hook does the same if a test class never closes it.
 * <p>
 * Missing binaries FAIL the test (never a skip), naming the Debian package to install.
 */
final class TestPostgres implements AutoCloseable {

    static final String USER = "vtbench";
    static final String DATABASE = "vtbench";
    static final String SCHEMA = "CREATE TABLE orders (id integer PRIMARY KEY, user_id integer NOT NULL, status text NOT NULL)";
    static final String SEED = "INSERT INTO orders (id, user_id, status) SELECT g, g % 1000 + 1, 'PAID' FROM generate_series(1, "
            + Orders.ORDER_COUNT + ") AS g";

    private final Path dir;
    private final Path data;
    private final Path bin;
    private final int port;
    private final boolean asPostgresUser;
    private final Thread hook;
    private boolean stopped;

    private TestPostgres(Path bin) throws IOException {
        this.bin = bin;
        this.asPostgresUser = "root".equals(System.getProperty("user.name"));
        this.dir = Files.createTempDirectory("vtbench-pg-");
        this.data = dir.resolve("data");
        if (asPostgresUser) {
            UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
            Files.setOwner(dir, users.lookupPrincipalByName("postgres"));
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        }
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            this.port = s.getLocalPort();
        }
        this.hook = new Thread(this::stopQuietly, "test-postgres-stop");
    }

    /**
     * initdb, start, create and seed the database.
     *
     * @throws AssertionError naming the package {@code postgresql} when no binaries are found, or with the
     *                        command's output when a step fails
     */
    static TestPostgres start() {
        Path bin = findBin();
        try {
            TestPostgres pg = new TestPostgres(bin);
            Runtime.getRuntime().addShutdownHook(pg.hook);
            pg.run(List.of(bin.resolve("initdb").toString(), "-D", pg.data.toString(), "-A", "trust", "-U", USER, "-E", "UTF8",
                    "--no-sync"));
            pg.run(List.of(bin.resolve("pg_ctl").toString(), "-D", pg.data.toString(), "-l", pg.dir.resolve("server.log").toString(),
                    "-w", "-t", "60", "-o", "-p " + pg.port + " -k " + pg.dir + " -c listen_addresses=127.0.0.1"
                            + " -c max_connections=300 -c fsync=off", "start"));
            pg.seed();
            return pg;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new AssertionError("seeding the test PostgreSQL failed: " + e, e);
        }
    }

    /** The newest {@code /usr/lib/postgresql/<v>/bin} with initdb and pg_ctl, else the PATH directory that has both. */
    static Path findBin() {
        return findBin(Path.of("/usr/lib/postgresql"), System.getenv().getOrDefault("PATH", ""));
    }

    /** {@link #findBin()} over a given versions root and PATH value (for its own test). */
    static Path findBin(Path root, String pathEnv) {
        List<Path> candidates = new ArrayList<>();
        if (Files.isDirectory(root)) {
            try (Stream<Path> vs = Files.list(root)) {
                vs.filter(p -> p.getFileName().toString().matches("\\d+(\\.\\d+)?"))
                        .sorted(Comparator.comparingDouble((Path p) -> Double.parseDouble(p.getFileName().toString())).reversed())
                        .forEach(p -> candidates.add(p.resolve("bin")));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        for (String d : pathEnv.split(java.io.File.pathSeparator)) {
            if (!d.isBlank()) {
                candidates.add(Path.of(d));
            }
        }
        for (Path c : candidates) {
            if (Files.isExecutable(c.resolve("initdb")) && Files.isExecutable(c.resolve("pg_ctl"))) {
                return c;
            }
        }
        throw new AssertionError("PostgreSQL server binaries (initdb, pg_ctl) not found in " + root + "/<version>/bin"
                + " or on PATH: install the Debian package 'postgresql' (apt-get install postgresql); the DB tests need a real server");
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE;
    }

    int port() {
        return port;
    }

    private void seed() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/postgres", USER, "");
                Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + DATABASE);
        }
        try (Connection c = DriverManager.getConnection(jdbcUrl(), USER, ""); Statement s = c.createStatement()) {
            s.execute(SCHEMA);
            s.execute(SEED);
        }
    }

    private void run(List<String> command) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (asPostgresUser) {
            cmd.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        cmd.addAll(command);
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out;
        try {
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("timed out: " + String.join(" ", cmd) + "\n" + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted: " + String.join(" ", cmd), e);
        }
        if (p.exitValue() != 0) {
            String log = "";
            Path serverLog = dir.resolve("server.log");
            if (Files.isReadable(serverLog)) {
                log = "\nserver.log:\n" + Files.readString(serverLog);
            }
            throw new AssertionError("exit " + p.exitValue() + ": " + String.join(" ", cmd) + "\n" + out + log);
        }
    }

    private synchronized void stopQuietly() {
        if (stopped) {
            return;
        }
        stopped = true;
        try {
            if (Files.exists(data.resolve("postmaster.pid"))) {
                run(List.of(bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-m", "immediate", "-w", "stop"));
            }
        } catch (IOException | AssertionError e) {
            System.err.println("test PostgreSQL in " + dir + " did not stop cleanly: " + e.getMessage());
        }
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not delete " + dir + ": " + e);
        }
    }

    /** Stops the server and deletes its directory (idempotent). */
    @Override
    public void close() {
        stopQuietly();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down: the hook runs or ran
        }
    }
}
