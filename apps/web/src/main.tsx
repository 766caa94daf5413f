import { render } from "preact";
import { initialToken } from "./api.ts";
import { App } from "./app.tsx";
import { stringsFor } from "./i18n.ts";
import "./styles.css";

const strings = stringsFor(navigator.languages.length > 0 ? navigator.languages : [navigator.language]);
document.documentElement.lang = strings.locale;
const token = initialToken(window.location, window.history, window.sessionStorage);
const root = document.getElementById("app");
if (root) render(<App strings={strings} token={token} storage={window.sessionStorage} />, root);
