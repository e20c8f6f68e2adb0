package org.dyper.patch.model;

import java.util.List;

/**
 * A CODE element: a call of {@code className.method} with the given arguments, run when all conditions hold.
 * {@code returnsContext} is true when the CODE holds {@code <RETURN TYPE='CONTEXT'/>}.
 */
public record Code(String type, String className, String method, Signature signature, List<Condition> conditions,
                   List<Arg> args, boolean returnsContext, Location at) {
    public Code {
        conditions = List.copyOf(conditions);
        args = List.copyOf(args);
    }
}
