package org.dyper.patch.build;

import java.util.List;

/** ajc refused the generated aspects or the input; carries ajc's messages, each with its source position. */
public final class WeaveException extends Exception {
    private final List<String> messages;

    public WeaveException(String summary, List<String> messages) {
        super(summary + (messages.isEmpty() ? "" : ":\n  " + String.join("\n  ", messages)));
        this.messages = List.copyOf(messages);
    }

    public List<String> messages() {
        return messages;
    }
}
