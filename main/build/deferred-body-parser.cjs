// body-parser as express sees it in the command line's bundle (main/build/build.ts): each parser is made, and its
// modules loaded (raw-body, qs, iconv-lite and its code pages: a tenth of the start-up), when the first request
// with a body reaches it. Until then a request goes on as body-parser itself lets it (body-parser/lib/read.js): one
// already read is left alone, and one without a body gets `req.body` undefined.
const onFinished = require('on-finished');
const { hasBody } = require('type-is');

function deferred(load) {
  return (options) => {
    let parser;
    return function deferredParser(req, res, next) {
      if (parser === undefined) {
        if (onFinished.isFinished(req)) return next();
        if (!('body' in req)) req.body = undefined;
        if (!hasBody(req)) return next();
        parser = load()(options);
      }
      return parser(req, res, next);
    };
  };
}

module.exports = {
  json: deferred(() => require('body-parser/json')),
  raw: deferred(() => require('body-parser/raw')),
  text: deferred(() => require('body-parser/text')),
  urlencoded: deferred(() => require('body-parser/urlencoded')),
};
