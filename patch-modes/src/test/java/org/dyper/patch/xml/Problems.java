package org.dyper.patch.xml;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.dyper.patch.model.InvalidInputException;
import org.dyper.patch.model.Model;
import org.dyper.patch.model.ModeSet;
import org.dyper.patch.model.Problem;

/** Runs the readers on XML text and returns what a user would read. */
final class Problems {
    private Problems() {}

    static ModeSet modes(String xml) throws InvalidInputException {
        return ModeReader.read("modes.xml", new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    static Model model(String xml) throws InvalidInputException {
        return ModelReader.read("model.xml", new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    /** The messages of every problem in a mode file that must be rejected. */
    static List<String> ofModes(String xml) {
        return messages(assertThrows(InvalidInputException.class, () -> modes(xml)));
    }

    /** The messages of every problem in a model file that must be rejected. */
    static List<String> ofModel(String xml) {
        return messages(assertThrows(InvalidInputException.class, () -> model(xml)));
    }

    static List<String> messages(InvalidInputException e) {
        return e.problems().stream().map(Problem::toString).toList();
    }
}
