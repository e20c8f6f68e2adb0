package org.dyper.patch.model;

import java.util.List;

/** A PATCH element: insert the code of {@code mode} at every {@code what} join point of the enclosing FOR. */
public record Patch(What what, String mode, List<When> whens, Location at) {
    public Patch {
        whens = List.copyOf(whens);
    }
}
