package straße.x;

public final class Event {
}
