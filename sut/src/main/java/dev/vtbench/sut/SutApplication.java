package dev.vtbench.sut;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;

import dev.vtbench.sut.config.InvalidBenchPropertyException;

/**
 * Entry point. A bad {@code bench.*} value, or an unknown {@code bench.*} name, ends the process with
 * one line on stderr naming the property (exit code 2), after Spring's own failure report.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SutApplication {

    public static void main(String[] args) {
        try {
            SpringApplication.run(SutApplication.class, args);
        } catch (RuntimeException e) {
            InvalidBenchPropertyException bad = InvalidBenchPropertyException.findIn(e);
            if (bad != null) {
                System.err.println("vtbench-sut: refusing to start: " + bad.getMessage());
                System.exit(2);
            }
            String unknown = unknownBenchProperties(e);
            if (unknown != null) {
                System.err.println("vtbench-sut: refusing to start: unknown properties " + unknown);
                System.exit(2);
            }
            throw e;
        }
    }

    /** The names Spring left unbound under {@code bench} (BenchProperties ignores no unknown field); null if none. */
    public static String unknownBenchProperties(Throwable t) {
        for (Throwable c = t; c != null && c.getCause() != c; c = c.getCause()) {
            if (c instanceof UnboundConfigurationPropertiesException u) {
                return u.getUnboundProperties().stream().map(p -> p.getName().toString()).sorted().toList().toString();
            }
        }
        return null;
    }
}
