/*
 * A stand-in for Google's https://apis.google.com/js/api.js, served by the browser tests through Playwright's
 * request routing (the machine is offline). The Firebase JS SDK uses this loader for one thing in the popup
 * sign-in: `gapi.iframes`, a message channel between the page and a hidden iframe (here the Auth emulator's
 * /emulator/auth/iframe page, which loads this same script). Both ends speak the small postMessage protocol below,
 * so only what the SDK and the emulator's iframe call is implemented: load, getContext().open(),
 * getParentIframe(), register, send, ping, restyle.
 */
(() => {
  const MARK = '__gapiStandIn';
  const channels = [];
  let seq = 0;

  function safely(fn, arg) {
    try {
      return fn(arg);
    } catch (err) {
      // gapi swallows exceptions thrown by callbacks (the SDK throws after answering one of them).
      console.debug('gapi stand-in: callback threw', err);
      return undefined;
    }
  }

  class Channel {
    constructor(target) {
      this.target = target;
      this.handlers = {};
      this.queued = {};
      this.replies = {};
      this.ready = false;
      this.waiting = [];
      channels.push(this);
    }
    post(message) {
      this.target.postMessage({ ...message, [MARK]: true }, '*');
    }
    register(name, handler) {
      this.handlers[name] = handler;
      // Messages that arrived before the handler are answered now, in order.
      for (const message of this.queued[name] ?? []) this.answer(message);
      delete this.queued[name];
    }
    send(name, data, callback) {
      const id = ++seq;
      if (callback) this.replies[id] = callback;
      this.post({ kind: 'message', name, data, id });
      return Promise.resolve();
    }
    ping(callback) {
      return new Promise((resolve) => {
        const done = () => {
          if (callback) safely(callback);
          resolve([]);
        };
        if (this.ready) done();
        else this.waiting.push(done);
      });
    }
    restyle() {
      return Promise.resolve();
    }
    answer(message) {
      const handler = this.handlers[message.name];
      if (!handler) {
        this.queued[message.name] = [...(this.queued[message.name] ?? []), message];
        return;
      }
      this.post({ kind: 'reply', id: message.id, result: [safely(handler, message.data)] });
    }
    receive(message) {
      if (message.kind === 'ready') {
        this.ready = true;
        for (const done of this.waiting.splice(0)) done();
      } else if (message.kind === 'message') this.answer(message);
      else if (message.kind === 'reply') {
        const callback = this.replies[message.id];
        delete this.replies[message.id];
        if (callback) safely(callback, message.result);
      }
    }
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || typeof message !== 'object' || !message[MARK]) return;
    const channel = channels.find((c) => c.target === event.source);
    if (channel) channel.receive(message);
  });

  let parent;
  const context = {
    /** Page side: opens the iframe and returns its channel (through `onOpened`, like gapi). */
    open(options, onOpened) {
      const frame = document.createElement('iframe');
      const attributes = options.attributes ?? {};
      for (const [name, value] of Object.entries(attributes)) {
        if (name === 'style') Object.assign(frame.style, value);
        else frame.setAttribute(name, String(value));
      }
      frame.src = options.url;
      (options.where ?? document.body).appendChild(frame);
      const channel = new Channel(frame.contentWindow);
      return Promise.resolve(onOpened ? onOpened(channel) : channel);
    },
    /** Iframe side: the channel to the page that opened this frame; says it is ready. */
    getParentIframe() {
      if (!parent) {
        parent = new Channel(window.parent);
        parent.post({ kind: 'ready' });
      }
      return parent;
    },
  };

  window.gapi = {
    load(name, config) {
      const callback = typeof config === 'function' ? config : config?.callback;
      setTimeout(() => callback?.(), 0);
    },
    iframes: {
      CROSS_ORIGIN_IFRAMES_FILTER: () => true,
      getContext: () => context,
    },
  };

  // The SDK loads the script with ?onload=<callback>; the emulator's iframe defines gapi_onload.
  const src = document.currentScript?.src ?? '';
  const onload = new URL(src, location.href).searchParams.get('onload');
  setTimeout(() => {
    if (onload && typeof window[onload] === 'function') window[onload]();
    else if (typeof window.gapi_onload === 'function') window.gapi_onload();
  }, 0);
})();
