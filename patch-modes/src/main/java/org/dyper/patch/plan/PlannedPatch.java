package org.dyper.patch.plan;

import org.dyper.patch.model.ForSpec;
import org.dyper.patch.model.Mode;
import org.dyper.patch.model.Patch;

/** A PATCH as planned for a method: the PATCH, the FOR that selected the method, and its resolved mode. */
public record PlannedPatch(Patch patch, ForSpec forSpec, Mode mode) {}
