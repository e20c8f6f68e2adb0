package org.dyper.patch.scan;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Type;

/** Conversions between JVM descriptors and Java type names. */
public final class Types {
    private Types() {}

    /** {@code I} → {@code int}, {@code Ljava/lang/String;} → {@code java.lang.String}, arrays with {@code []}. */
    public static String typeName(String descriptor) {
        return Type.getType(descriptor).getClassName();
    }

    public static List<String> parameterTypes(String methodDescriptor) {
        List<String> names = new ArrayList<>();
        for (Type t : Type.getArgumentTypes(methodDescriptor)) {
            names.add(t.getClassName());
        }
        return names;
    }

    public static String returnType(String methodDescriptor) {
        return Type.getReturnType(methodDescriptor).getClassName();
    }

    /** Java source spelling of a binary name: nested classes use dots. */
    public static String sourceName(String binaryName) {
        return binaryName.replace('$', '.');
    }

    public static boolean isPrimitive(String javaType) {
        switch (javaType) {
            case "boolean": case "byte": case "char": case "short": case "int": case "long": case "float":
            case "double": case "void":
                return true;
            default:
                return false;
        }
    }

    /** The zero value of a Java type, as a source literal. */
    public static String zero(String javaType) {
        switch (javaType) {
            case "boolean": return "false";
            case "byte": return "(byte) 0";
            case "char": return "(char) 0";
            case "short": return "(short) 0";
            case "int": return "0";
            case "long": return "0L";
            case "float": return "0f";
            case "double": return "0d";
            default: return "null";
        }
    }

    /** True when a value of Java type {@code from} may be passed where {@code to} is declared (primitives only). */
    public static boolean primitiveWidens(String from, String to) {
        if (from.equals(to)) {
            return true;
        }
        String order = switch (from) {
            case "byte" -> "short int long float double";
            case "short", "char" -> "int long float double";
            case "int" -> "long float double";
            case "long" -> "float double";
            case "float" -> "double";
            default -> "";
        };
        return List.of(order.split(" ")).contains(to);
    }

    /** Source spelling usable in generated code (nested classes with dots, arrays kept). */
    public static String sourceType(String javaType) {
        return javaType.replace('$', '.');
    }
}
