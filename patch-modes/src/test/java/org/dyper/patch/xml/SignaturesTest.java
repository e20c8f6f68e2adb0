package org.dyper.patch.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.dyper.patch.model.Location;
import org.dyper.patch.model.Problem;
import org.dyper.patch.model.Signature;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SignaturesTest {
    static Stream<Arguments> valid() {
        return Stream.of(
                arguments("()", List.of(), null),
                arguments("( )", List.of(), null),
                arguments("(int,java.lang.Object,long)", List.of("int", "java.lang.Object", "long"), null),
                arguments(" ( int , Object ,  long ) ", List.of("int", "java.lang.Object", "long"), null),
                arguments("(String, Thread, Class, CharSequence)",
                        List.of("java.lang.String", "java.lang.Thread", "java.lang.Class", "java.lang.CharSequence"), null),
                arguments("(int[], java.lang.String[][], byte [ ])", List.of("int[]", "java.lang.String[][]", "byte[]"), null),
                arguments("(org.x.Outer$Inner, boolean, char, short, float, double)",
                        List.of("org.x.Outer$Inner", "boolean", "char", "short", "float", "double"), null),
                arguments("long (int)", List.of("int"), "long"),
                arguments("void(int,long)", List.of("int", "long"), "void"),
                arguments("Object[] (int)", List.of("int"), "java.lang.Object[]"),
                arguments("()V", List.of(), "void"),
                arguments("(I)J", List.of("int"), "long"),
                arguments("(ILjava/lang/Object;J)V", List.of("int", "java.lang.Object", "long"), "void"),
                arguments("([I[[Ljava/lang/String;ZBCSFD)Ljava/lang/Object;",
                        List.of("int[]", "java.lang.String[][]", "boolean", "byte", "char", "short", "float", "double"),
                        "java.lang.Object"),
                arguments("(Lorg/x/Outer$Inner;)[J", List.of("org.x.Outer$Inner"), "long[]"));
    }

    @ParameterizedTest(name = "[{index}] ''{0}''")
    @MethodSource("valid")
    void parsesEveryForm(String text, List<String> parameters, String returnType) {
        assertEquals(new Signature(parameters, returnType, text.strip()), Signatures.parse(text));
    }

    static Stream<Arguments> invalid() {
        String qualify = " must be fully qualified; only primitive types and java.lang types may be written without a package";
        return Stream.of(
                arguments("", "it is empty"),
                arguments("int, long", "expected Java style '(int,java.lang.Object)' or a JVM descriptor such as '(ILjava/lang/Object;)V'"),
                arguments(")(", "expected Java style '(int,java.lang.Object)' or a JVM descriptor such as '(ILjava/lang/Object;)V'"),
                arguments("(int,)", "parameter 2 is empty"),
                arguments("(int x)", "'int x' is not a Java type name"),
                arguments("(List)", "type 'List'" + qualify),
                arguments("(I)", "type 'I'" + qualify + " (a JVM descriptor needs a return type, e.g. '(I)V')"),
                arguments("(java.util.List<String>)", "'java.util.List<String>' is generic; write the erased type, e.g. 'java.util.List'"),
                arguments("(int...)", "'int...' uses varargs; write an array type, e.g. 'int[]'"),
                arguments("(java/lang/Object)", "'java/lang/Object' uses '/'; Java-style signatures separate packages with '.'"),
                arguments("(void)", "'void' is not a parameter type"),
                arguments("(int[)", "'int[' is not a valid array type"),
                arguments("(int) long", "unexpected text after ')' (in Java style the return type goes first, e.g. 'long (int)')"),
                arguments("((int))", "unbalanced parentheses"),
                arguments("Foo (int)", "type 'Foo'" + qualify),
                arguments("(IQ)V", "unexpected 'Q' at position 2 of the JVM descriptor (expected one of B C D F I J S Z L [ or ))"),
                arguments("(I)X", "unexpected 'X' at position 3 of the JVM descriptor (expected one of V B C D F I J S Z L [)"),
                arguments("([)V", "unexpected ')' at position 2 of the JVM descriptor (expected one of B C D F I J S Z L [)"),
                arguments("(Ljava/lang/Object)V", "missing ';' after class name at position 1 of the JVM descriptor"),
                arguments("(Ljava.lang.Object;)V", "'Ljava.lang.Object;' is not a class in a JVM descriptor (write packages with '/', e.g. 'Ljava/lang/Object;')"),
                arguments("(I)VV", "unexpected 'V' after the return type of the JVM descriptor"),
                arguments("(I)[", "JVM descriptor ends inside a type"));
    }

    @ParameterizedTest(name = "[{index}] ''{0}''")
    @MethodSource("invalid")
    void reportsWhatIsWrong(String text, String reason) {
        List<Problem> problems = new ArrayList<>();
        assertNull(Signatures.parse(text, new Location("m.xml", 3, 5), problems));
        assertEquals(List.of("m.xml:3:5: CODE: SIGNATURE='" + text + "' is not valid: " + reason),
                problems.stream().map(Problem::toString).toList());
    }
}
