package org.dyper.patch.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Errors have a bound: the first 100 are listed, the rest counted in one more (issue 20, item 8). */
class InvalidInputExceptionTest {
    private static Problem error(int line) {
        return Problem.error(new Location("m.xml", line, 3), "FOR", "bad " + line);
    }

    @Test
    void aHundredErrorsAreListedAsTheyAre() {
        List<Problem> found = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            found.add(error(i));
        }
        found.add(Problem.warning(new Location("m.xml", 200, 1), "MODEL", "w"));
        InvalidInputException e = new InvalidInputException(found);
        assertEquals(found, e.listed());
        assertEquals(100, e.errorCount());
    }

    @Test
    void errorsPastTheFirstHundredAreCountedAtTheFirstLeftOutAndWarningsAreKept() {
        List<Problem> found = new ArrayList<>();
        Problem warning = Problem.warning(new Location("m.xml", 1, 1), "MODEL", "w");
        found.add(warning);
        for (int i = 1; i <= 1234; i++) {
            found.add(error(i + 1));
        }
        Problem late = Problem.warning(new Location("m.xml", 9999, 1), "FOR", "late");
        found.add(late);
        InvalidInputException e = new InvalidInputException(found);
        assertEquals(1234, e.errorCount());
        assertEquals(found, e.problems());
        List<Problem> listed = e.listed();
        assertEquals(103, listed.size());
        assertSame(warning, listed.get(0));
        assertEquals(found.subList(1, 101), listed.subList(1, 101));
        assertEquals("m.xml:102:3: FOR: … and 1,134 more errors (the first here; only the first 100 are listed)",
                listed.get(101).toString());
        assertSame(late, listed.get(102));
        assertEquals(103, e.getMessage().lines().count());
        InvalidInputException again = new InvalidInputException(e.problems());
        assertEquals(1234, again.errorCount(), "gathered again from problems(), nothing is lost");
        assertEquals(listed, again.listed());
    }
}
