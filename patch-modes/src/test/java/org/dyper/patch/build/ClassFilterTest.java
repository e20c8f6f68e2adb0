package org.dyper.patch.build;

import org.dyper.patch.plan.Planner;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Compiled class-name patterns agree with the generator's glob on every kind of pattern. */
class ClassFilterTest {
    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource(delimiter = '|', textBlock = """
            com.acme.Bank          | com.acme.Bank         | true
            com.acme.Bank          | com.acme.BankX        | false
            com.acme.*             | com.acme.Bank         | true
            com.acme.*             | com.acmeX.Bank        | false
            com.ac*                | com.acmeX.Bank        | true
            *Test                  | com.acme.BankTest     | true
            *Test                  | com.acme.TestBank     | false
            *                      | anything.At.All       | true
            *.internal.*           | com.acme.internal.X   | true
            *.internal.*           | com.acme.external.X   | false
            com.*.Bank             | com.acme.Bank         | true
            com.*.Bank             | com.acme.Banker       | false
            com.*.Ba*k             | com.acme.Baak         | true
            com.acme.Outer.Inner   | com.acme.Outer$Inner  | true
            com.acme.Outer$Inner   | com.acme.Outer$Inner  | true
            com.acme.Outer.*       | com.acme.Outer$Inner  | true
            *Inner                 | com.acme.Outer$Inner  | true
            """)
    void matchesLikeTheGlob(String pattern, String name, boolean expected) {
        assertEquals(expected, new ClassFilter(List.of(pattern)).matches(name));
        boolean glob = Planner.glob(pattern).matcher(name).matches()
                || Planner.glob(pattern).matcher(name.replace('$', '.')).matches();
        assertEquals(glob, expected, "the fixture agrees with the generator's glob");
    }

    /** Many patterns of every kind at once: a class matches when any of them does. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            org.x.Keep      | true
            org.y.Anything  | true
            com.z.FooTest   | true
            com.z.a.b.Mid   | true
            com.q.Other     | false
            """)
    void anyOfManyPatterns(String name, boolean expected) {
        ClassFilter f = new ClassFilter(List.of("org.x.Keep", "org.y.*", "*Test", "*.a.b.*", "c*.z.n*"));
        assertEquals(expected, f.matches(name));
    }
}
