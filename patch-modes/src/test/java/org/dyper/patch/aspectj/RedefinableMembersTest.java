package org.dyper.patch.aspectj;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Member;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.dyper.patch.runtime.RuntimePatch;
import org.dyper.patch.runtime.RuntimeWeaving;
import org.dyper.patch.build.WeaveException;
import org.dyper.patch.build.Weaver;
import org.example.fixture.Target;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Code woven for run-time patching adds no member to the class it patches and changes no modifier: for every WHAT
 * (the matrix cases of {@link GeneratorBehaviourTest}, which pass THIS, FIELD and ids at each), and for the cases
 * that make ajc add members (privileged field reads, synchronized methods), the fixture's declared fields, methods,
 * constructors, modifiers, superclass and interfaces are the same by reflection before and after. Binary weaving of
 * the same timing patch (inlined around advice) does add methods, and the run-time way refuses that output.
 */
class RedefinableMembersTest {
    @TempDir
    Path dir;

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>(GeneratorBehaviourTest.matrix().toList());
        GeneratorBehaviourTest.specificCases().filter(c -> {
            String name = (String) c.get()[0];
            // the cases that patch the fixture's Target (the one class this test compares)
            return (name.contains("FIELD") || name.contains("SYNC") || name.contains("CONTEXT")
                    || name.contains("constructor")) && ((String) c.get()[1]).contains("CLASS='" + Target.class
                    .getName() + "'");
        }).forEach(all::add);
        return all.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theDeclaredMembersAreTheSameByReflection(String name, String fors, List<String> events) throws Exception {
        String modes = Files.readString(Path.of(getClass().getResource("/gen/recorder-modes.xml").toURI()));
        Weaver.Inputs in = Woven.inputs(dir, modes, "<MODEL NAME='test'>" + fors + "</MODEL>");
        RuntimePatch patch = RuntimePatches.patch(in, dir.resolve("patches")).patch();
        assertEquals(List.of(Target.class.getName()), List.copyOf(patch.patched().keySet()));
        byte[] before = patch.originals().get(Target.class.getName());
        byte[] after = patch.patched().get(Target.class.getName());
        assertTrue(!java.util.Arrays.equals(before, after), "the class was patched");
        assertEquals(members(before, patch, false), members(after, patch, true), name);
    }

    /** Binary weaving's inlined around advice adds methods: the run-time way refuses such output with the names. */
    @Test
    void aroundAdviceWouldAddMethodsAndIsRefused() throws Exception {
        String modes = Files.readString(Path.of(getClass().getResource("/gen/recorder-modes.xml").toURI()));
        Weaver.Inputs in = Woven.inputs(dir, modes, "<MODEL NAME='test'><FOR CLASS='org.example.fixture.Target' "
                + "METHOD='fail'><PATCH WHAT='ENTER' MODE='START'/><PATCH WHAT='EXIT' MODE='STOP'/></FOR></MODEL>");
        GeneratedCode around = Weaver.generate(in);
        Map<String, byte[]> originals = Map.of(Target.class.getName(), Files.readAllBytes(in.targets().get(0)
                .resolve("org/example/fixture/Target.class")));
        List<Path> cp = new ArrayList<>(in.targets());
        cp.addAll(in.classpath());
        WeaveException e = assertThrows(WeaveException.class, () -> RuntimeWeaving.weave("test",
                RuntimeWeaving.id("test", around, originals), around, originals, cp));
        assertEquals("the woven classes cannot replace the loaded ones:", e.getMessage().lines().findFirst()
                .orElseThrow());
        assertTrue(e.getMessage().contains("org.example.fixture.Target: weaving added the method fail_aroundBody0"),
                e.getMessage());
    }

    /** Fields, methods and constructors with their modifiers, the class's modifiers, superclass and interfaces. */
    private static TreeSet<String> members(byte[] classFile, RuntimePatch patch, boolean withAspects)
            throws Exception {
        Loader loader = new Loader();
        if (withAspects) {
            patch.aspects().values().forEach(loader::define);
        }
        Class<?> c = loader.define(classFile);
        TreeSet<String> s = new TreeSet<>();
        s.add("class " + Modifier.toString(c.getModifiers()) + " extends " + c.getSuperclass().getName() + " "
                + List.of(c.getInterfaces()));
        List<Member> members = new ArrayList<>(List.of(c.getDeclaredFields()));
        members.addAll(List.of(c.getDeclaredMethods()));
        members.addAll(List.of(c.getDeclaredConstructors()));
        for (Member m : members) {
            s.add(Modifier.toString(m.getModifiers()) + " " + m);
        }
        return s;
    }

    /** Defines class files without loading anything of the fixture from its parent. */
    private static final class Loader extends ClassLoader {
        Loader() {
            super(RedefinableMembersTest.class.getClassLoader());
        }

        Class<?> define(byte[] b) {
            return defineClass(null, b, 0, b.length);
        }
    }
}
