package dev.vtbench.sut.observability;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Library versions read at runtime from the jars on the class path (what actually runs, not what the pom asked for). */
public final class Versions {

    private Versions() {
    }

    /**
     * The version in the jar's {@code META-INF/maven/<groupId>/<artifactId>/pom.properties}, else the
     * {@code Implementation-Version} of {@code probe}'s package, else {@code "unknown"}.
     */
    public static String of(String groupId, String artifactId, Class<?> probe) {
        String path = "META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
        try (InputStream in = probe.getClassLoader().getResourceAsStream(path)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.isBlank()) {
                    return v;
                }
            }
        } catch (IOException e) {
            // fall through to the manifest
        }
        String v = probe.getPackage() == null ? null : probe.getPackage().getImplementationVersion();
        return v == null ? "unknown" : v;
    }
}
