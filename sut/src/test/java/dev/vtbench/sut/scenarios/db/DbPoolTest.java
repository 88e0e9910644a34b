package dev.vtbench.sut.scenarios.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** {@link DbPool}'s URL masking for {@code /bench/info} (the pool itself is exercised by the DB ITs). */
class DbPoolTest {

    @Test
    void maskPassword_hidesAPasswordInTheUrlQuery() {
        assertEquals("jdbc:postgresql://h:1/d?user=a&password=***&ssl=false",
                DbPool.maskPassword("jdbc:postgresql://h:1/d?user=a&password=x&ssl=false"));
        assertEquals("jdbc:postgresql://h:1/d?password=***", DbPool.maskPassword("jdbc:postgresql://h:1/d?password=x"));
        assertEquals("jdbc:postgresql://h:1/d", DbPool.maskPassword("jdbc:postgresql://h:1/d"));
        assertNull(DbPool.maskPassword(null));
    }
}
