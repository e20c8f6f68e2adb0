package org.dyper.patch.aspectj;

import java.util.LinkedHashMap;
import java.util.Map;
import org.dyper.patch.scan.FieldInfo;
import org.objectweb.asm.Opcodes;

/**
 * How generated advice reads a field of the patched program (ARG and CONDITION TYPE='FIELD'). A public field of a
 * class the generated package can name is read directly. Any other field is read through a {@code MethodHandle}
 * that a small holder class, nested in the generation's shared class ({@link AspectFiles#SHARED_CLASS}), looks up once (a private lookup in the field's class,
 * found by name through the aspect's class loader); the JIT folds the constant handle into a plain field load. So
 * the aspects never need AspectJ's privileged access, which adds accessor methods to the target class and makes
 * every class the aspect names public.
 *
 * <p>If the lookup fails (a named module that does not open the package), the failure is counted once against the
 * first site that uses the field, and each read then fails and is counted like any failing hook.
 */
final class FieldReads {
    private final SourceNames names;
    private final String holderOwner;
    /** Holder class declarations by field key ({@code owner.name}), in first-use order. */
    private final Map<String, String> holders = new LinkedHashMap<>();
    private final Map<String, String> holderNames = new LinkedHashMap<>();

    /** {@code holderOwner}: the generated type (fully qualified) the holder classes are nested in. */
    FieldReads(SourceNames names, String holderOwner) {
        this.names = names;
        this.holderOwner = holderOwner;
    }

    /**
     * A Java expression with the value of {@code f}: of {@code receiver} (an expression) for an instance field,
     * ignored for a static one. Its static type is {@link #valueType}. {@code site} is the id a failed lookup is
     * counted against.
     */
    String read(FieldInfo f, String receiver, int site) {
        boolean direct = (f.access() & Opcodes.ACC_PUBLIC) != 0 && names.isNameable(f.owner())
                && names.isNameable(f.type().replace("[]", ""));
        if (direct) {
            String owner = names.javaType(f.owner());
            return f.isStatic() ? owner + "." + f.name() : "((" + owner + ") " + receiver + ")." + f.name();
        }
        String holder = holder(f, site);
        String type = valueType(f);
        return "((" + type + ") " + holderOwner + "." + holder + ".GET.invokeExact("
                + (f.isStatic() ? "" : "(java.lang.Object) " + receiver) + "))";
    }

    /** The type the expression {@link #read} gives has in the generated source. */
    String valueType(FieldInfo f) {
        return names.javaType(f.type());
    }

    private String holder(FieldInfo f, int site) {
        String key = f.owner() + "." + f.name();
        String existing = holderNames.get(key);
        if (existing != null) {
            return existing;
        }
        String name = "Field" + (holderNames.size() + 1);
        holderNames.put(key, name);
        String type = valueType(f);
        String mh = "java.lang.invoke.MethodHandle";
        String methodType = "java.lang.invoke.MethodType.methodType(" + type + ".class"
                + (f.isStatic() ? "" : ", java.lang.Object.class") + ")";
        holders.put(key, "    /** Reads " + key + " (" + f.type() + "). */\n"
                + "    static final class " + name + " {\n"
                + "        static final " + mh + " GET;\n\n"
                + "        static {\n"
                + "            " + mh + " h = null;\n"
                + "            try {\n"
                + "                Class<?> owner = Class.forName(" + AspectFiles.javaString(f.owner()) + ", false, "
                + name + ".class.getClassLoader());\n"
                + "                h = java.lang.invoke.MethodHandles.privateLookupIn(owner, "
                + "java.lang.invoke.MethodHandles.lookup())\n"
                + "                        .unreflectGetter(owner.getDeclaredField(" + AspectFiles.javaString(f.name())
                + ")).asType(" + methodType + ");\n"
                + "            } catch (Throwable t) {\n"
                + "                " + Source.RUNTIME + ".hookFailed(" + AspectFiles.id(site) + ", t);\n"
                + "            }\n"
                + "            GET = h;\n"
                + "        }\n"
                + "    }\n");
        return name;
    }

    /** Java source of the holder classes, for the body of the holder owner; empty when every read is direct. */
    String declarations() {
        return holders.isEmpty() ? "" : String.join("\n", holders.values()) + "\n";
    }
}
