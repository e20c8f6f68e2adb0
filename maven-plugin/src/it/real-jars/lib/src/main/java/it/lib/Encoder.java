package it.lib;

/** Names the optional codec in a signature: it cannot be woven where opt is absent either. */
public class Encoder {
    public int encode(it.opt.Codec codec, int x) {
        return codec.code(x);
    }

    public int plain(int x) {
        return x;
    }
}
