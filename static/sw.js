// sw.js: the service worker, served at /sw.js so its scope is the whole site. It shows the
// notification a push message carries (app/notify/push.py `message`: public facts of a match
// only) and, on a click, opens (or focuses) the room.

self.addEventListener("push", (event) => {
  if (!event.data) return;
  const notice = event.data.json();
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      data: { url: notice.url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data.url, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
