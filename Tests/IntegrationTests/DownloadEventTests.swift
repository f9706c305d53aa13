import Foundation
import Testing
import WebImageKit

/// Download events as a stream and as notifications (issue item 7; SPEC NT-01…NT-04, DL-11).
@Suite struct DownloadEventTests {
    /// The event kinds of `events`, progress left out, for comparing orders.
    static func kinds(_ events: [DownloadEvent]) -> [String] {
        events.compactMap { event in
            switch event {
            case .started: "started"
            case .receivedResponse: "receivedResponse"
            case .progress: nil
            case .stopped: "stopped"
            case .finished: "finished"
            }
        }
    }

    /// Runs one download of `path` and returns every event and the names of the notifications posted for it.
    static func record(_ path: String, server: TestImageServer) async throws -> (events: [DownloadEvent], notifications: [Notification.Name]) {
        try await server.run { base in
            let notifications = LockedValue<[Notification.Name]>([])
            var configuration = ImageDownloader.Configuration()
            configuration.postsNotifications = true
            let downloader = ImageDownloader(configuration: configuration)
            let names: [Notification.Name] = [.imageDownloadStart, .imageDownloadReceiveResponse, .imageDownloadStop, .imageDownloadFinish]
            let observers = names.map { name in
                NotificationCenter.default.addObserver(forName: name, object: downloader, queue: nil) { note in
                    if let url = note.userInfo?[ImageDownloader.urlUserInfoKey] as? URL, url.path == path {
                        notifications.withLock { $0.append(note.name) }
                    }
                }
            }
            defer { observers.forEach(NotificationCenter.default.removeObserver) }
            let stream = downloader.events()
            _ = try? await downloader.image(for: base.appendingPathComponent(String(path.dropFirst())))
            try await downloader.shutdown()
            var events: [DownloadEvent] = []
            for await event in stream { events.append(event) }  // ends with the shutdown
            return (events, notifications.withLock { $0 })
        }
    }

    @Test func aSuccessfulDownloadStartsReceivesAResponseProgressesStopsAndFinishes() async throws {
        let server = try TestImageServer()
        let (events, notifications) = try await Self.record("/image/events.png", server: server)
        #expect(Self.kinds(events) == ["started", "receivedResponse", "stopped", "finished"])
        #expect(events.allSatisfy { $0.url.path == "/image/events.png" })
        let progress = events.compactMap { event -> DownloadProgress? in
            if case .progress(let progress) = event { return progress }
            return nil
        }
        #expect(progress.last?.receivedBytes == server.png.count)
        #expect(notifications == [.imageDownloadStart, .imageDownloadReceiveResponse, .imageDownloadStop, .imageDownloadFinish])
    }

    @Test func aNotFoundDownloadOnlyStartsAndStops() async throws {  // SPEC NT-02, section 16 note 3
        let server = try TestImageServer()
        let (events, notifications) = try await Self.record("/status/404", server: server)
        #expect(Self.kinds(events) == ["started", "stopped"])
        #expect(notifications == [.imageDownloadStart, .imageDownloadStop])
    }
}
