package dev.vtbench.sut.scenarios.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The DB tests' server lookup: the newest versioned bin directory wins; none at all fails naming the Debian package. */
class TestPostgresTest {

    private static void fakeBin(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (String tool : new String[] {"initdb", "pg_ctl"}) {
            Path f = Files.writeString(dir.resolve(tool), "#!/bin/sh\n");
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void findBin_prefersTheNewestVersionUnderTheRoot_thenPath(@TempDir Path tmp) throws IOException {
        fakeBin(tmp.resolve("root/13/bin"));
        fakeBin(tmp.resolve("root/15/bin"));
        fakeBin(tmp.resolve("onpath"));
        assertEquals(tmp.resolve("root/15/bin"), TestPostgres.findBin(tmp.resolve("root"), tmp.resolve("onpath").toString()));
        assertEquals(tmp.resolve("onpath"), TestPostgres.findBin(tmp.resolve("none"), "/nonexistent:" + tmp.resolve("onpath")));
    }

    @Test
    void findBin_withoutBinaries_failsNamingTheDebianPackage(@TempDir Path tmp) {
        AssertionError e = assertThrows(AssertionError.class, () -> TestPostgres.findBin(tmp.resolve("none"), tmp.toString()));
        assertTrue(e.getMessage().contains("install the Debian package 'postgresql'"), e.getMessage());
    }
}
