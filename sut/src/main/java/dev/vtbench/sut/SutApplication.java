package dev.vtbench.sut;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Entry point. A bad {@code bench.*} value ends the process with one line on stderr naming the
 * property (exit code 2), after Spring's own failure report.
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
            throw e;
        }
    }
}
