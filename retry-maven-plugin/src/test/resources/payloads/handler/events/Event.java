package handler.events;

public final class Event {
}
