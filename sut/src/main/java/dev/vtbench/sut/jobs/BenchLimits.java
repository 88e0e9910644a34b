package dev.vtbench.sut.jobs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * The ranges the job endpoints accept, from {@code bench-limits.properties} on the classpath
 * ({@code sut/src/main/resources/}): the same file the harness's plan check reads
 * (src/plan/sut-limits.ts), so both sides know one limit. A missing key is a build error, found
 * at the first use.
 */
public final class BenchLimits {

    /** An inclusive whole-number range. */
    public record Range(long min, long max) {
    }

    private static final Pattern RANGE = Pattern.compile("^\\s*(-?\\d+)\\.\\.(-?\\d+)\\s*$");
    private static final Properties PROPS = load();

    private BenchLimits() {
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = BenchLimits.class.getResourceAsStream("/bench-limits.properties")) {
            if (in == null) {
                throw new IllegalStateException("bench-limits.properties is not on the classpath");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    /** The range of {@code <job>.<param>}; throws IllegalStateException when the file lacks it. */
    public static Range of(String job, String param) {
        String key = job + "." + param;
        String v = PROPS.getProperty(key);
        Matcher m = v == null ? null : RANGE.matcher(v);
        if (m == null || !m.matches()) {
            throw new IllegalStateException("bench-limits.properties: " + key + " is " + (v == null ? "missing" : "'" + v + "', not <min>..<max>"));
        }
        return new Range(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
    }

    /** HTTP 400 {@code <param> must be in <min>..<max>, got <v>} when v is outside the job's range for param. */
    public static void check(String job, String param, long v) {
        Range r = of(job, param);
        if (v < r.min() || v > r.max()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, param + " must be in " + r.min() + ".." + r.max() + ", got " + v);
        }
    }
}
