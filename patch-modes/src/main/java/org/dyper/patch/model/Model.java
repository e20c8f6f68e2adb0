package org.dyper.patch.model;

import java.util.List;

/** A MODEL element: a named patch model, the list of FORs in document order. */
public record Model(String name, List<ForSpec> fors, Location at) {
    public Model {
        fors = List.copyOf(fors);
    }
}
