package org.dyper.runtime.monitor.internal.sampling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Woven methods as the user wrote them, lambda classes without their run-to-run numbers, Dyper's own classes. */
class FrameNamesTest {
    private static Frame f(String cls, String method, int line) {
        return new Frame(cls, method, line, false);
    }

    /** Stacks as sampled from woven code, and as the report shows them. */
    static Stream<Arguments> wovenStacks() {
        return Stream.of(
                Arguments.of("around advice frames fold into the user's method", List.of(
                        f("org.dyper.samples.bank.Bank", "mix", 77),
                        f("org.dyper.samples.bank.Bank", "audit_aroundBody0", 71),
                        f("org.dyper.samples.bank.Bank", "audit_aroundBody1$advice", 12),
                        f("org.dyper.samples.bank.Bank", "audit", 60),
                        f("org.dyper.samples.bank.BankApp$Worker", "run", 119)), List.of(
                        f("org.dyper.samples.bank.Bank", "mix", 77),
                        f("org.dyper.samples.bank.Bank", "audit", 71),
                        f("org.dyper.samples.bank.BankApp$Worker", "run", 119))),
                Arguments.of("Dyper's own hook in the advice stays visible", List.of(
                        f("org.dyper.runtime.Timing", "exit", 20),
                        f("com.acme.Shop", "buy_aroundBody3$advice", 5),
                        f("com.acme.Shop", "buy", 30),
                        f("com.acme.Main", "main", 9)), List.of(
                        f("org.dyper.runtime.Timing", "exit", 20),
                        f("com.acme.Shop", "buy", 30),
                        f("com.acme.Main", "main", 9))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wovenStacks")
    void wovenStacksAreCleaned(String what, List<Frame> woven, List<Frame> shown) {
        assertEquals(shown, FrameNames.clean(woven));
    }

    @Test
    void recursionOfAPlainMethodIsKept() {
        List<Frame> plain = List.of(f("p.A", "f", 3), f("p.A", "f", 3), f("p.A", "g", 8));
        assertEquals(plain, FrameNames.clean(plain));
        assertEquals("f_aroundBodyx", FrameNames.method("f_aroundBodyx"));
        assertEquals("f", FrameNames.method("f_aroundBody12"));
    }

    @Test
    void lambdaClassesLoseTheirNumbers() {
        assertEquals(List.of(f("p.Main$$Lambda", "run", -1)),
                FrameNames.named(List.of(f("p.Main$$Lambda$45+0x00007f4c24007758.460332449", "run", -1))));
        assertEquals(List.of(f("p.Main$$Lambda", "run", -1)),
                FrameNames.named(List.of(f("p.Main$$Lambda/0x0000000800c03000", "run", -1))));
        assertEquals(List.of(f("p.Main$$Lambda/0x0000000800c03000", "run", -1)),
                FrameNames.clean(List.of(f("p.Main$$Lambda/0x0000000800c03000", "run", -1))), "stack dumps keep it");
    }

    @Test
    void dypersOwnClasses() {
        assertTrue(FrameNames.dyper("org.dyper.runtime.Timing"));
        assertTrue(FrameNames.dyper("org.dyper.generated.DyperPatches1"));
        assertTrue(FrameNames.dyper("org.aspectj.runtime.reflect.Factory"));
        assertFalse(FrameNames.dyper("org.dyper.samples.bank.Bank"));
        assertFalse(FrameNames.dyper("com.acme.Main"));
    }
}
